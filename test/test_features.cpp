// Ansor per-store features on Halide's lowered Stmt: hand-analysable pipelines whose counts,
// bytes, strides, loop products and GPU extents are worked out in the comments, and the
// shape-generic variant, which must not change with the shape for one micro-kernel.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "dense_fixture.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "features/Features.h"
#include "features/KernelFeatures.h"
#include "features/Lowering.h"
#include "schedule/Instantiate.h"
#include "space/MicroKernel.h"

#include <cmath>
#include <set>

using namespace Halide;
using namespace diet;

namespace {

// Lowering needs no code generation, so any x86 target works on any machine.
const Target cpu_target("x86-64-linux-avx2-fma");
const Target cuda_target("host-cuda-cuda_capability_80");

// Halide may rename Funcs (acc$2) and GPU lowering names allocations <func>.0.
bool names(const std::string &buffer, const std::string &func) {
    return buffer == func || buffer.rfind(func + "$", 0) == 0 || buffer.rfind(func + ".", 0) == 0;
}

const FeatureRow &row_of(const ProgramFeatures &f, const std::string &func) {
    for (const FeatureRow &r : f.rows) {
        if (names(r.buffer, func)) return r;
    }
    FAIL("no feature row for " << func);
    return f.rows.front();
}

double raw(const FeatureRow &r, const std::string &feature) {
    const int i = ansor_feature_index(feature);
    REQUIRE(i >= 0);
    return r.ansor_raw[i];
}

double extra(const FeatureRow &r, const std::string &feature) {
    const int i = halide_feature_index(feature);
    REQUIRE(i >= 0);
    return r.halide_raw[i];
}

// Raw value of buffer slot `slot` (B0..B4) and the buffer it describes.
double slot(const FeatureRow &r, int slot, const std::string &feature) {
    return raw(r, "B" + std::to_string(slot) + "." + feature);
}

ProgramFeatures features_of(const Func &f, const Target &t, bool generic = false) {
    LoweredProgram p = lower_at_shape(Pipeline(f), t, Shape{});
    CHECK(p.violated_assertions.empty());
    ProgramFeatures pf = extract_features(p, FeatureOptions{generic});
    CHECK(pf.unbounded_loops == 0);
    return pf;
}

using DensePipeline = DenseFixture;

}  // namespace

TEST_CASE("feature names follow Ansor's order and the transform is log2p", "[features]") {
    REQUIRE(ansor_feature_names().size() == kAnsorFeatureCount);
    REQUIRE(halide_feature_names().size() == kHalideFeatureCount);
    CHECK(ansor_feature_index("float_mad") == 0);
    CHECK(ansor_feature_index("select_op") == 15);
    CHECK(ansor_feature_index("vec_type.kPosMixed") == 26);
    CHECK(ansor_feature_index("is_gpu") == 49);
    CHECK(ansor_feature_index("vthread_len") == 56);
    CHECK(ansor_feature_index("B0.acc_type.kRead") == 57);
    CHECK(ansor_feature_index("B4.stride") == 146);
    CHECK(ansor_feature_index("arith_intensity_curve_0") == 147);
    CHECK(ansor_feature_index("alloc_size") == 157);
    CHECK(ansor_feature_index("auto_unroll_max_step") == 163);
    CHECK(log2p(0) == 0);
    CHECK(log2p(64) == Approx(std::log2(65.0)));
    CHECK(log2p(-3) == Approx(-2.0));
}

TEST_CASE("pointwise add: op counts, bytes, lines, vector and parallel loops", "[features]") {
    // f(x, y) = a(x, y) + b(x, y) on 64 x 32 floats; x vectorized by 8, y parallel.
    // Loops: y (32, parallel), x.x (8), the 8 lanes -> 2048 stores, 2048 float adds.
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = a(x, y) + b(x, y);
    f.vectorize(x, 8).parallel(y);
    a.set_estimates({{0, 64}, {0, 32}});
    b.set_estimates({{0, 64}, {0, 32}});
    f.set_estimates({{0, 64}, {0, 32}});

    ProgramFeatures pf = features_of(f, cpu_target);
    REQUIRE(pf.rows.size() == 1);
    const FeatureRow &r = pf.rows[0];
    CHECK(r.buffer == f.name());
    CHECK(raw(r, "float_addsub") == 2048);
    CHECK(raw(r, "float_mul") == 0);
    CHECK(raw(r, "float_mad") == 0);
    CHECK(raw(r, "vec_num") == 1);
    CHECK(raw(r, "vec_prod") == 8);
    CHECK(raw(r, "vec_len") == 8);
    CHECK(raw(r, "vec_type.kPosMixed") == 1);
    CHECK(raw(r, "unroll_num") == 0);
    CHECK(raw(r, "unroll_type.kPosNone") == 1);
    CHECK(raw(r, "parallel_num") == 1);
    CHECK(raw(r, "parallel_prod") == 32);
    CHECK(raw(r, "parallel_len") == 32);
    CHECK(raw(r, "is_gpu") == 0);
    CHECK(raw(r, "blockIdx_x_len") == 1);
    CHECK(raw(r, "outer_prod") == 2048);
    CHECK(raw(r, "num_loops") == 3);
    // Every buffer: 2048 accesses of 4 bytes, unit stride -> 2048 * 4 / 64 = 128 lines; no reuse.
    // Equal lines and bytes: the write comes first, then the reads in order.
    REQUIRE(r.slots == std::vector<std::string>{f.name(), "a", "b", "", ""});
    for (int s = 0; s < 3; s++) {
        INFO("slot " << s);
        CHECK(slot(r, s, s == 0 ? "acc_type.kWrite" : "acc_type.kRead") == 1);
        CHECK(slot(r, s, "bytes") == 8192);
        CHECK(slot(r, s, "unique_bytes") == 8192);
        CHECK(slot(r, s, "lines") == 128);
        CHECK(slot(r, s, "unique_lines") == 128);
        CHECK(slot(r, s, "stride") == 1);
        CHECK(slot(r, s, "reuse_type.kNoReuse") == 1);
        CHECK(slot(r, s, "reuse_ct") == 0);
        CHECK(slot(r, s, "bytes_d_reuse_ct") == 2 * 8192);  // Ansor's "magic 2" without reuse
    }
    CHECK(slot(r, 3, "bytes") == 0);
    // One add per 12 bytes (two loads and a store) at every loop level.
    for (int i = 0; i < 10; i++) CHECK(raw(r, "arith_intensity_curve_" + std::to_string(i)) == Approx(1.0 / 12));
    CHECK(extra(r, "mem.none") == 1);
    CHECK(extra(r, "predicated_stores") == 0);

    // The transformed vector: log2p except the one-hots and is_gpu.
    CHECK(r.ansor[ansor_feature_index("float_addsub")] == Approx(std::log2(2049.0)));
    CHECK(r.ansor[ansor_feature_index("vec_type.kPosMixed")] == 1);
    CHECK(r.ansor[ansor_feature_index("B0.acc_type.kWrite")] == 1);
    CHECK(r.ansor[ansor_feature_index("blockIdx_x_len")] == 1);  // log2p(1)
    std::vector<float> sum = pack_sum(pf);
    REQUIRE(sum.size() == kAnsorFeatureCount + kHalideFeatureCount);
    CHECK(sum[1] == r.ansor[1]);
}

TEST_CASE("2-D copy with a transpose: strides and cache lines", "[features]") {
    // f(x, y) = a(y, x), f is 16 x 8, a is 8 x 16. Loops y (8), x (16): 128 stores.
    // f moves by 1 element per x, a by 8 (a row of a): a's stride is 8, 8 * 4 bytes = half a
    // 64-byte line per access -> 128 * 0.5 = 64 lines; f: 128 * 4 / 64 = 8 lines.
    ImageParam a(Float(32), 2, "a");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = a(y, x);
    a.set_estimates({{0, 8}, {0, 16}});
    f.set_estimates({{0, 16}, {0, 8}});

    ProgramFeatures pf = features_of(f, cpu_target);
    REQUIRE(pf.rows.size() == 1);
    const FeatureRow &r = pf.rows[0];
    CHECK(raw(r, "outer_prod") == 128);
    CHECK(raw(r, "num_loops") == 2);
    CHECK(raw(r, "vec_num") == 0);
    CHECK(raw(r, "float_addsub") == 0);
    REQUIRE(r.slots == std::vector<std::string>{"a", f.name(), "", "", ""});  // most lines first
    CHECK(slot(r, 0, "stride") == 8);
    CHECK(slot(r, 0, "lines") == 64);
    CHECK(slot(r, 0, "bytes") == 512);
    CHECK(slot(r, 0, "unique_bytes") == 512);
    CHECK(slot(r, 0, "unique_lines") == 8);
    CHECK(slot(r, 1, "stride") == 1);
    CHECK(slot(r, 1, "lines") == 8);
    CHECK(slot(r, 1, "unique_bytes") == 512);
    CHECK(slot(r, 1, "acc_type.kWrite") == 1);
}

TEST_CASE("tiled matmul: unrolled and vectorized loops, reuse, allocation", "[features]") {
    // f(x, y) = sum_k a(k, y) * b(x, k): f is 32 x 16, k in [0, 64).
    // f tiled 8 x 4 (yo: 4, xo: 4 tiles); acc (8 x 4 floats) computed per tile; its update runs
    // k (64), then y (4, unrolled), then x (8, vectorized).
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    RDom k(0, 64, "k");
    Func acc("acc"), f("f");
    acc(x, y) = 0.f;
    acc(x, y) += a(k, y) * b(x, k);
    f(x, y) = acc(x, y);
    a.set_estimates({{0, 64}, {0, 16}});
    b.set_estimates({{0, 32}, {0, 64}});
    f.set_estimates({{0, 32}, {0, 16}});
    f.tile(x, y, xo, yo, xi, yi, 8, 4).vectorize(xi);
    acc.compute_at(f, xo).vectorize(x);
    acc.update().reorder(x, y, k).vectorize(x).unroll(y);

    ProgramFeatures pf = features_of(f, cpu_target);
    REQUIRE(pf.rows.size() == 2);
    const FeatureRow &r = row_of(pf, "acc");
    // 32 * 16 outputs * 64 steps: one mul and one add each. The init (acc = 0) adds none.
    CHECK(raw(r, "float_mul") == 32768);
    CHECK(raw(r, "float_addsub") == 32768);
    // The update's loops: yo 4, xo 4, k 64, y 4, lanes 8.
    CHECK(raw(r, "outer_prod") == 32768);
    CHECK(raw(r, "num_loops") == 5);
    CHECK(raw(r, "unroll_num") == 1);
    CHECK(raw(r, "unroll_prod") == 4);
    CHECK(raw(r, "unroll_len") == 4);
    CHECK(raw(r, "unroll_type.kPosMixed") == 1);
    CHECK(raw(r, "vec_len") == 8);
    CHECK(raw(r, "parallel_num") == 0);
    // acc: 8 * 4 floats = 128 bytes, allocated inside yo * xo = 16 iterations; 2048 of the
    // update's 32768 iterations happen inside one allocation.
    CHECK(raw(r, "alloc_size") == 128);
    CHECK(raw(r, "alloc_outer_prod") == 16);
    CHECK(raw(r, "alloc_prod") == 32 * 16);
    CHECK(raw(r, "alloc_inner_prod") == 2048);
    CHECK(extra(r, "mem.stack") == 1);

    // a(k, y) is the same for all lanes (broadcast): the lanes re-read it 8 times; it moves by a
    // row (64 floats) per y -> stride 0 at the innermost loop, one line per access outside the
    // lanes: 32768 / 8 = 4096 lines. acc and b move by 1 per lane: 32768 * 4 / 64 = 2048 lines.
    REQUIRE(r.slots.size() == 5);
    CHECK(names(r.slots[0], "a"));
    CHECK(names(r.slots[1], "acc"));
    CHECK(names(r.slots[2], "b"));
    CHECK(slot(r, 0, "lines") == 4096);
    CHECK(slot(r, 0, "stride") == 0);
    CHECK(slot(r, 0, "unique_bytes") == 16 * 64 * 4);
    CHECK(slot(r, 0, "reuse_type.kLoopMultipleRead") == 1);
    CHECK(slot(r, 0, "reuse_ct") == 8);
    CHECK(slot(r, 1, "acc_type.kReadWrite") == 1);
    CHECK(slot(r, 1, "lines") == 2048);
    CHECK(slot(r, 1, "stride") == 1);
    CHECK(slot(r, 1, "unique_bytes") == 128);
    CHECK(slot(r, 1, "reuse_ct") == 64);          // acc does not move with k
    CHECK(slot(r, 1, "reuse_dis_iter") == 32);    // the lanes and y between two uses
    CHECK(slot(r, 2, "unique_bytes") == 32 * 64 * 4);
    CHECK(slot(r, 2, "reuse_ct") == 4);           // b does not move with y
    // Arithmetic intensity over the whole nest: 65536 flops over 128 + 8192 + 4096 bytes.
    CHECK(raw(r, "arith_intensity_curve_9") == Approx(65536.0 / 12416));

    const FeatureRow &out = row_of(pf, "f");
    CHECK(raw(out, "outer_prod") == 512);  // yo, xo, yi, lanes
    CHECK(raw(out, "num_loops") == 4);
    CHECK(raw(out, "float_mul") == 0);
    CHECK(extra(out, "mem.none") == 1);

    // The schedule is unrolled again after lowering.
    bool unrolled = false;
    for (const Internal::Dim &d : acc.function().update(0).schedule().dims()) {
        unrolled = unrolled || (d.var == "y" && d.for_type == Internal::ForType::Unrolled);
    }
    CHECK(unrolled);
}

TEST_CASE("guarded tails are counted once", "[features]") {
    SECTION("a predicated vector tail") {
        // 100 floats, vectors of 8: 12 full vectors and one predicated store of 4 lanes.
        ImageParam a(Float(32), 1, "a");
        Var x("x");
        Func f("f");
        f(x) = a(x) * 2.f;
        f.vectorize(x, 8, TailStrategy::GuardWithIf);
        a.set_estimates({{0, 100}});
        f.set_estimates({{0, 100}});
        ProgramFeatures pf = features_of(f, cpu_target);
        const FeatureRow &r = row_of(pf, "f");
        CHECK(raw(r, "float_mul") == 100);
        CHECK(extra(r, "predicated_stores") == 1);
        // The row describes the store that runs most: the loop of 12 vectors, not the tail.
        CHECK(raw(r, "outer_prod") == 96);
        CHECK(raw(r, "num_loops") == 2);
    }
    SECTION("a partitioned loop") {
        // 100 rows in blocks of 8: 12 full blocks and a last one of 4 rows, in separate
        // branches of the parallel loop; each of the 10 x 100 elements is multiplied once.
        ImageParam a(Float(32), 2, "a");
        Var x("x"), y("y"), yo("yo"), yi("yi");
        Func f("f");
        f(x, y) = a(x, y) * 2.f;
        f.split(y, yo, yi, 8, TailStrategy::GuardWithIf).parallel(yo);
        a.set_estimates({{0, 10}, {0, 100}});
        f.set_estimates({{0, 10}, {0, 100}});
        ProgramFeatures pf = features_of(f, cpu_target);
        const FeatureRow &r = row_of(pf, "f");
        CHECK(raw(r, "float_mul") == 1000);
        CHECK(raw(r, "parallel_prod") == 13);
        CHECK(raw(r, "outer_prod") == 960);  // the 12 full blocks' branch
    }
    SECTION("GPU thread guards") {
        // 100 x 37 outputs in 16 x 16 thread blocks: 7 x 3 blocks, 112 x 48 threads, guarded
        // per thread; Halide also splits off the blocks that need no guard.
        ImageParam a(Float(32), 2, "a");
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        Func f("f");
        f(x, y) = a(x, y) * 2.f;
        f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16, TailStrategy::GuardWithIf);
        a.set_estimates({{0, 100}, {0, 37}});
        f.set_estimates({{0, 100}, {0, 37}});
        ProgramFeatures pf = features_of(f, cuda_target);
        const FeatureRow &r = row_of(pf, "f");
        CHECK(raw(r, "float_mul") == 3700);
        CHECK(raw(r, "blockIdx_x_len") == 7);
        CHECK(raw(r, "blockIdx_y_len") == 3);
    }
}

TEST_CASE("GPU: block and thread extents, kernels, register allocations", "[features][cuda]") {
    // The matmul above on CUDA: 16 x 8 threads per block over 32 x 16 outputs -> 2 x 2 blocks;
    // each thread reduces over k (64) into a register.
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    RDom k(0, 64, "k");
    Func acc("acc"), f("f");
    acc(x, y) = 0.f;
    acc(x, y) += a(k, y) * b(x, k);
    f(x, y) = acc(x, y);
    a.set_estimates({{0, 64}, {0, 16}});
    b.set_estimates({{0, 32}, {0, 64}});
    f.set_estimates({{0, 32}, {0, 16}});
    f.gpu_tile(x, y, xo, yo, xi, yi, 16, 8);

    ProgramFeatures pf = features_of(f, cuda_target);
    CHECK(pf.gpu_kernels == 1);
    const FeatureRow &r = row_of(pf, "acc");
    CHECK(raw(r, "is_gpu") == 1);
    CHECK(raw(r, "blockIdx_x_len") == 2);
    CHECK(raw(r, "blockIdx_y_len") == 2);
    CHECK(raw(r, "blockIdx_z_len") == 1);
    CHECK(raw(r, "threadIdx_x_len") == 16);
    CHECK(raw(r, "threadIdx_y_len") == 8);
    CHECK(raw(r, "threadIdx_z_len") == 1);
    CHECK(raw(r, "vthread_len") == 1);
    CHECK(raw(r, "parallel_num") == 0);  // GPU loops are loops, not parallel loops (as in Ansor)
    CHECK(raw(r, "float_mul") == 32768);
    CHECK(raw(r, "outer_prod") == 32768);  // 2 * 2 blocks * 8 * 16 threads * 64
    CHECK(raw(r, "num_loops") == 5);
    CHECK(raw(r, "alloc_size") == 4);
    CHECK(raw(r, "alloc_outer_prod") == 512);
    CHECK(extra(r, "mem.register") == 1);
    CHECK(extra(r, "gpu_kernels") == 1);
    // Innermost loop k: b moves by a row (32 floats), a by one float.
    CHECK(names(r.slots[0], "b"));
    CHECK(slot(r, 0, "stride") == 32);
    CHECK(slot(r, 0, "lines") == 32768);
    CHECK(names(r.slots[1], "a"));
    CHECK(slot(r, 1, "stride") == 1);
    CHECK(slot(r, 1, "lines") == 2048);
    CHECK(raw(row_of(pf, "f"), "outer_prod") == 512);

    // Per thread block: the block loops are not iterated.
    ProgramFeatures g = features_of(f, cuda_target, true);
    const FeatureRow &gr = row_of(g, "acc");
    CHECK(raw(gr, "blockIdx_x_len") == 1);
    CHECK(raw(gr, "blockIdx_y_len") == 1);
    CHECK(raw(gr, "threadIdx_x_len") == 16);
    CHECK(raw(gr, "float_mul") == 16 * 8 * 64);
    CHECK(raw(gr, "outer_prod") == 16 * 8 * 64);
    CHECK(raw(gr, "num_loops") == 3);
}

TEST_CASE("loop extents come from the bound shape", "[features]") {
    // The same schedule at two output sizes: the loop over rows changes, nothing stays symbolic.
    ImageParam a(Float(32), 2, "a");
    Param<int> H("H", 8, 1, 64);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = a(x, y) * 3.f;
    f.vectorize(x, 8).parallel(y);
    a.dim(0).set_estimate(0, 16);
    a.dim(1).set_estimate(0, H);
    f.set_estimates({{0, 16}, {0, H}});
    for (int h : {3, 40}) {
        LoweredProgram p = lower_at_shape(Pipeline(f), cpu_target, Shape{{"H", h}});
        CHECK(p.binding.buffers.at(f.name()) == std::vector<int64_t>{16, h});
        CHECK(p.binding.buffers.at("a") == std::vector<int64_t>{16, h});
        CHECK(p.binding.varying.count(f.name() + ".extent.1"));
        CHECK(!p.binding.varying.count(f.name() + ".extent.0"));
        ProgramFeatures pf = extract_features(p);
        CHECK(pf.unbounded_loops == 0);
        const FeatureRow &r = row_of(pf, "f");
        CHECK(raw(r, "float_mul") == 16 * h);
        CHECK(raw(r, "parallel_prod") == h);
    }
}

TEST_CASE("the shape-generic vector of a micro-kernel is the same at every shape", "[features][generic]") {
    for (bool gpu : {false, true}) {
        DYNAMIC_SECTION((gpu ? "CUDA" : "CPU")) {
            DensePipeline d;
            const Target t = gpu ? cuda_target : cpu_target;
            // Bind both shapes before instantiate() makes the estimates constant.
            std::map<int, ShapeBinding> bindings;
            for (int T : {2, 64}) bindings[T] = bind_shape(Pipeline(d.y), Shape{{"T", T}});

            FunctionDAG dag(d.outputs());
            ShapeFamily fam = read_shape_family(d.outputs(), Options{});
            MatmulExtents ext = matmul_extents(dag.matmuls()[0], fam, fam.training_shapes(8, 0));
            CpuLimits cpu = CpuLimits::for_target(t, 2, 0);
            std::vector<MicroKernel> space =
                gpu ? enumerate_gpu_kernels(dag.matmuls()[0], ext, GpuLimits{}) : enumerate_cpu_kernels(dag.matmuls()[0], ext, cpu);
            REQUIRE(!space.empty());
            // A kernel whose largest tile divides 32 rows and 96 columns, so that T = 2 (32 rows)
            // and T = 64 select the same tile variant and no shifted tile recomputes outputs (a
            // 64-column staged block covers 96 columns with 128): the heuristic's if it does.
            auto fits = [](const MicroKernel &k) {
                const TileVariant v = tile_variants(k).front();
                return 32 % v.rows == 0 && 96 % v.cols == 0;
            };
            MicroKernel k = choose_by_heuristic(space, ext, gpu ? 108 : 2);
            if (!fits(k)) k = *std::find_if(space.begin(), space.end(), fits);
            INFO(k.to_string());
            Candidate c{{{dag.matmuls()[0], k}}};

            std::map<int, ProgramFeatures> generic, concrete;
            for (int T : {2, 64}) {
                Pipeline p = instantiate(d.outputs(), c, t, cpu, Shape{{"T", T}});
                LoweredProgram lp = lower_at_shape(p, t, bindings[T]);
                CHECK(lp.violated_assertions.empty());
                generic[T] = extract_features(lp, FeatureOptions{true});
                concrete[T] = extract_features(lp, FeatureOptions{false});
            }

            // The whole-program features follow the shape: 96 x 16T outputs, 64 mul each.
            CHECK(raw(row_of(concrete[2], "acc"), "float_mul") == 96 * 32 * 64);
            CHECK(raw(row_of(concrete[64], "acc"), "float_mul") == 96 * 1024 * 64);
            // Per register tile (CPU) or per thread block (CUDA): one tile's work. On the CPU the
            // loop over a task's panel of tiles is not iterated either: the tile's position comes
            // from the run-time task grain (schedule/TaskGrain.h), a function of the shape.
            const TileVariant v = tile_variants(k).front();
            const double tile_work = double(v.cols) * v.rows * 64;
            CHECK(raw(row_of(generic[2], "acc"), "float_mul") == tile_work);

            REQUIRE(generic[2].rows.size() == generic[64].rows.size());
            for (size_t i = 0; i < generic[2].rows.size(); i++) {
                const FeatureRow &a = generic[2].rows[i], &b = generic[64].rows[i];
                INFO("row " << a.buffer);
                CHECK(a.buffer == b.buffer);
                CHECK(a.slots == b.slots);
                CHECK(a.ansor == b.ansor);
                CHECK(a.halide == b.halide);
            }
            CHECK(pack_sum(generic[2]) == pack_sum(generic[64]));
            CHECK(pack_sum(concrete[2]) != pack_sum(concrete[64]));
        }
    }
}

TEST_CASE("a buffer without estimates is a clear error", "[features]") {
    ImageParam a(Float(32), 1, "a");
    Var x("x");
    Func f("f");
    f(x) = a(x) + 1.f;
    f.set_estimates({{0, 16}});
    std::string message = "no error";
    try {
        lower_at_shape(Pipeline(f), cpu_target, Shape{});
    } catch (const CompileError &e) {
        message = e.what();
    }
    CHECK_THAT(message, Catch::Contains("input buffer a, dimension 0 has no estimate"));
}

TEST_CASE("loop-nest features tell every kernel apart and agree with the lowered Stmt", "[features][kernel]") {
    DensePipeline d;  // y(96 x 16T) = x(64 x 16T) . w(64 x 96)
    const Target t = cpu_target;
    std::map<int, ShapeBinding> bindings;
    for (int T : {1, 4, 64}) bindings[T] = bind_shape(Pipeline(d.y), Shape{{"T", T}});
    FunctionDAG dag(d.outputs());
    const MatmulPattern &p = dag.matmuls()[0];
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    MatmulExtents ext = matmul_extents(p, fam, fam.training_shapes(8, 0));
    CpuLimits cpu = CpuLimits::for_target(t, 2, 0);
    std::vector<MicroKernel> space = enumerate_cpu_kernels(p, ext, cpu);
    REQUIRE(space.size() > 20);
    auto at = [&](const MicroKernel &k, int T) {
        return KernelAtShape{summarize(p), summarize(cpu), k, {96, 16 * T}, 64};
    };
    REQUIRE(kernel_feature_names().size() == kernel_features(at(space[0], 4)).size());

    // Every schedule difference in the space changes the vector, at small and large shapes.
    for (int T : {1, 64}) {
        std::set<std::vector<float>> seen;
        for (const MicroKernel &k : space) seen.insert(kernel_features(at(k, T)));
        CHECK(seen.size() == space.size());
    }

    // What the features are derived from, against the Stmt of the kernel at the shape.
    auto value = [](const std::vector<float> &f, const std::string &name) {
        const int i = kernel_feature_index(name);
        REQUIRE(i >= 0);
        return std::exp2((double)f[i]) - 1;  // the inverse of log2p for non-negative values
    };
    for (size_t i = 0; i < space.size(); i += space.size() / 7) {
        const MicroKernel &k = space[i];
        for (int T : {4, 64}) {
            INFO(k.to_string() << " at T=" << T);
            Pipeline pl = instantiate(d.outputs(), Candidate{{{p, k}}}, t, cpu, Shape{{"T", T}});
            LoweredProgram lp = lower_at_shape(pl, t, bindings[T]);
            ProgramFeatures pf = extract_features(lp, FeatureOptions{false});
            // A dot-product kernel multiplies in its rfactor intermediate (one per tile variant:
            // the variant the shape selects is the one that does the work).
            const FeatureRow *work = &row_of(pf, "acc");
            if (k.cpu.dot) {
                work = nullptr;
                for (const FeatureRow &r : pf.rows) {
                    if (r.buffer.find("intm") != std::string::npos &&
                        (!work || raw(r, "float_mul") > raw(*work, "float_mul"))) {
                        work = &r;
                    }
                }
                REQUIRE(work);
            }
            const FeatureRow &acc = *work;
            const std::vector<float> f = kernel_features(at(k, T));
            // Thread-pool tasks: the product of the parallel loops around the accumulator (none
            // when the kernel runs as one task).
            CHECK(std::max(1.0, raw(acc, "parallel_prod")) == Approx(value(f, "shape.tasks")).epsilon(1e-3));
            // Work: one multiply per reduction point, recomputed points of shifted tiles included.
            const double points = 96.0 * 16 * T * 64;
            const double pad = f[kernel_feature_index("shape.padding_efficiency")];
            // (A last panel with fewer tiles is guarded per tile; the extractor counts a guard it
            // cannot resolve in full, so there the Stmt's count is bounded by whole panels.)
            const int64_t tile_cols = (int64_t)(value(f, "tile.cols") + 0.5);
            const int64_t tiles = (96 + tile_cols - 1) / tile_cols;
            const double whole_panels = (double)((tiles + k.cpu.panel_tiles - 1) / k.cpu.panel_tiles * k.cpu.panel_tiles) / tiles;
            CHECK(raw(acc, "float_mul") >= points);
            CHECK(raw(acc, "float_mul") >= Approx(points / pad).epsilon(0.02));
            CHECK(raw(acc, "float_mul") <= Approx(points / pad * whole_panels).epsilon(0.02));
            // The vectors of the selected tile variant.
            const double lanes = f[kernel_feature_index("tile.lane_use")] * k.cpu.vector_width;
            if (value(f, "tile.vectors") >= 1) CHECK(raw(acc, "vec_len") == Approx(lanes));
        }
    }
}
