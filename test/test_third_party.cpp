// The third-party generator built with Diet through GenGen's command line, and rebuilt from the
// emitted schedule without the plugin: correct at every U in its range, and identical.
#include <catch2/catch.hpp>

#include "HalideBuffer.h"
#include "third_party_diet.h"
#include "third_party_frozen.h"
#include "third_party_attention.h"
#include "third_party_attention_frozen.h"
#include "third_party_scores.h"

#include <cmath>
#include <random>

using Halide::Runtime::Buffer;

TEST_CASE("a user's generator is correct at every shape of its range and the frozen schedule matches",
          "[third_party]") {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    Buffer<float> wgt(40, 48), bias(40);
    wgt.for_each_value([&](float &v) { v = u(rng); });
    bias.for_each_value([&](float &v) { v = u(rng); });
    for (int U = 1; U <= 64; U++) {
        INFO("U=" << U);
        const int rows = 3 * U;
        Buffer<float> act(48, rows), diet_out(40, rows), frozen_out(40, rows);
        act.for_each_value([&](float &v) { v = u(rng); });
        REQUIRE(third_party_diet(act, wgt, bias, U, diet_out) == 0);
        REQUIRE(third_party_frozen(act, wgt, bias, U, frozen_out) == 0);
        double worst = 0, worst_frozen = 0;
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < 40; j++) {
                double s = 0;
                for (int r = 0; r < 48; r++) s += (double)act(r, i) * wgt(j, r);
                double ref = std::max(s + bias(j), 0.0);
                worst = std::max(worst, std::abs(ref - diet_out(j, i)));
                worst_frozen = std::max(worst_frozen, (double)std::abs(diet_out(j, i) - frozen_out(j, i)));
            }
        }
        CHECK(worst < 1e-4);
        CHECK(worst_frozen == 0);
    }
}

TEST_CASE("a user's attention scores written as an update on the output: correct at every S", "[third_party]") {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (int S = 1; S <= 70; S++) {  // the range is [1, 64]; 65..70 lie outside it
        INFO("S=" << S);
        Buffer<float> q(32, S, 4), k(32, S, 4), out(S, S, 4);
        q.for_each_value([&](float &v) { v = u(rng); });
        k.for_each_value([&](float &v) { v = u(rng); });
        REQUIRE(third_party_scores(q, k, S, out) == 0);
        double worst = 0;
        for (int h = 0; h < 4; h++) {
            for (int i = 0; i < S; i++) {
                for (int j = 0; j < S; j++) {
                    double s = 0;
                    for (int d = 0; d < 32; d++) s += (double)q(d, i, h) * k(d, j, h) * 0.125;
                    worst = std::max(worst, std::abs(s - out(j, i, h)));
                }
            }
        }
        CHECK(worst < 1e-4);
    }
}

TEST_CASE("a user's attention block (scores read by a softmax): correct at every S, the frozen schedule identical",
          "[third_party]") {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (int S = 1; S <= 64; S++) {  // S bounds the softmax's RDom: its range is the family
        INFO("S=" << S);
        Buffer<float> q(32, S, 4), k(32, S, 4), v(32, S, 4), out(32, S, 4), frozen(32, S, 4);
        for (Buffer<float> *b : {&q, &k, &v}) b->for_each_value([&](float &x) { x = u(rng); });
        REQUIRE(third_party_attention(q, k, v, S, out) == 0);
        REQUIRE(third_party_attention_frozen(q, k, v, S, frozen) == 0);
        double worst = 0, worst_frozen = 0;
        for (int h = 0; h < 4; h++) {
            for (int i = 0; i < S; i++) {
                std::vector<double> p(S);
                double top = -1e300, total = 0;
                for (int j = 0; j < S; j++) {
                    double s = 0;
                    for (int c = 0; c < 32; c++) s += (double)q(c, i, h) * k(c, j, h);
                    p[j] = s / std::sqrt(32.0);
                    top = std::max(top, p[j]);
                }
                for (int j = 0; j < S; j++) total += p[j] = std::exp(p[j] - top);
                for (int d = 0; d < 32; d++) {
                    double ref = 0;
                    for (int j = 0; j < S; j++) ref += p[j] * v(d, j, h) / total;
                    worst = std::max(worst, std::abs(ref - out(d, i, h)));
                    worst_frozen = std::max(worst_frozen, (double)std::abs(out(d, i, h) - frozen(d, i, h)));
                }
            }
        }
        CHECK(worst < 1e-4);
        CHECK(worst_frozen == 0);
    }
}
