#include "search/Evolution.h"

#include "Halide.h"
#include "common/Errors.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <random>
#include <set>
#include <sstream>

namespace diet {

namespace {

// A kernel's tunable fields as a vector, so mutation and crossover are generic.
std::vector<int> fields_of(const MicroKernel &k) {
    // Every field that tells two kernels of the space apart (a dot-product kernel and a column
    // kernel of the same sizes are different kernels, not one index entry).
    if (k.gpu) return {k.cuda.threads_x, k.cuda.threads_y, k.cuda.reg_x, k.cuda.reg_y, k.cuda.k_unroll, k.cuda.k_tile};
    return {k.cpu.vectors, k.cpu.rows, k.cpu.panel_tiles, k.cpu.k_unroll, k.cpu.stage_strided ? 1 : 0,
            k.cpu.dot ? 1 : 0, k.cpu.k_pack, k.cpu.depth};
}

class SpaceIndex {
public:
    explicit SpaceIndex(const std::vector<MicroKernel> &space) {
        for (size_t i = 0; i < space.size(); i++) {
            auto f = fields_of(space[i]);
            index_.emplace(f, i);
            fields_.push_back(f);
        }
    }
    std::optional<size_t> find(const std::vector<int> &f) const {
        auto it = index_.find(f);
        return it == index_.end() ? std::nullopt : std::optional<size_t>(it->second);
    }
    const std::vector<int> &fields(size_t k) const { return fields_[k]; }

private:
    std::map<std::vector<int>, size_t> index_;
    std::vector<std::vector<int>> fields_;
};

std::vector<size_t> neighbors_in(const SpaceIndex &idx, size_t count, size_t k) {
    std::vector<size_t> out;
    const auto &f = idx.fields(k);
    for (size_t j = 0; j < count; j++) {
        const auto &g = idx.fields(j);
        int diff = 0;
        for (size_t d = 0; d < f.size(); d++) diff += f[d] != g[d];
        if (diff == 1) out.push_back(j);
    }
    return out;
}

}  // namespace

std::vector<size_t> neighbors(const std::vector<MicroKernel> &space, size_t k) {
    return neighbors_in(SpaceIndex(space), space.size(), k);
}

SearchResult evolutionary_search(const std::vector<MicroKernel> &space, const std::vector<double> &shape_weights,
                                 const Predict &predict, const Measure &measure, const Learn &learn,
                                 const SearchParams &params, const Report &report) {
    user_assert(!space.empty()) << "Diet: the micro-kernel space is empty\n";
    user_assert(params.budget >= 0) << "Diet: the trial budget must be >= 0\n";
    const size_t shapes = shape_weights.size();
    SpaceIndex idx(space);
    std::vector<std::vector<size_t>> neighbor_cache(space.size());
    std::vector<bool> neighbors_known(space.size(), false);
    auto neighbors_of = [&](size_t k) -> const std::vector<size_t> & {
        if (!neighbors_known[k]) {
            neighbor_cache[k] = neighbors_in(idx, space.size(), k);
            neighbors_known[k] = true;
        }
        return neighbor_cache[k];
    };

    std::mt19937_64 rng(params.seed);
    SearchResult result;
    result.best_kernel.assign(shapes, 0);
    result.best_seconds.assign(shapes, std::nullopt);
    std::set<std::pair<size_t, size_t>> measured;
    const auto start = std::chrono::steady_clock::now();

    // Predicted scores, normalized per shape by the best prediction among `ks`: a kernel's fitness
    // is how close it comes to the best known kernel at each shape, weighted by the shape's share
    // and by how far that shape's measured best still is from its prediction.
    auto fitness = [&](const std::vector<size_t> &ks, std::vector<std::vector<double>> *scores_out) {
        auto scores = predict(ks);
        internal_assert(scores.size() == ks.size());
        std::vector<double> top(shapes, 1e-30);
        for (const auto &row : scores) {
            for (size_t s = 0; s < shapes; s++) top[s] = std::max(top[s], row[s]);
        }
        std::vector<double> urgency(shapes, 1.0);
        for (size_t s = 0; s < shapes; s++) {
            urgency[s] = result.best_seconds[s] ? 1.0 : 2.0;  // unmeasured shapes need attention first
        }
        std::vector<double> f(ks.size(), 0.0);
        for (size_t i = 0; i < ks.size(); i++) {
            for (size_t s = 0; s < shapes; s++) f[i] += shape_weights[s] * urgency[s] * scores[i][s] / top[s];
        }
        if (scores_out) *scores_out = std::move(scores);
        return f;
    };

    // Who survives a generation: half the population by joint fitness (kernels good across shapes),
    // the other half split among the shapes, each keeping its own best predicted kernels, so that
    // a kernel that is best for one shape only is not crowded out by generalists.
    auto survivors = [&](const std::vector<size_t> &pool) {
        std::vector<std::vector<double>> scores;
        std::vector<double> joint = fitness(pool, &scores);
        std::vector<size_t> order(pool.size());
        std::set<size_t> keep;
        auto take_best = [&](auto better, size_t count) {
            for (size_t i = 0; i < order.size(); i++) order[i] = i;
            std::stable_sort(order.begin(), order.end(), better);
            for (size_t i = 0, taken = 0; i < order.size() && taken < count; i++) {
                if (keep.insert(pool[order[i]]).second) taken++;
            }
        };
        const size_t half = std::max<size_t>(1, params.population / 2);
        take_best([&](size_t a, size_t b) { return joint[a] > joint[b]; }, half);
        const size_t per_shape = std::max<size_t>(1, (params.population - half) / std::max<size_t>(1, shapes));
        for (size_t sh = 0; sh < shapes; sh++) {
            take_best([&](size_t a, size_t b) { return scores[a][sh] > scores[b][sh]; }, per_shape);
        }
        return std::vector<size_t>(keep.begin(), keep.end());
    };

    // Initial population: the seeds, then random distinct kernels.
    std::vector<size_t> all(space.size());
    for (size_t i = 0; i < all.size(); i++) all[i] = i;
    std::shuffle(all.begin(), all.end(), rng);
    std::vector<size_t> population;
    const size_t population_size = std::min<size_t>(std::max<size_t>(1, params.population), all.size());
    for (size_t k : params.seeds) {
        internal_assert(k < space.size()) << "Diet: a search seed outside the space\n";
        if (population.size() < population_size && std::find(population.begin(), population.end(), k) == population.end()) {
            population.push_back(k);
        }
    }
    for (size_t k : all) {
        if (population.size() >= population_size) break;
        if (std::find(population.begin(), population.end(), k) == population.end()) population.push_back(k);
    }

    int round = 0;
    const int total = params.budget;
    while ((int)result.trials.size() < total && measured.size() < space.size() * shapes) {
        round++;
        // Evolve: roulette selection on fitness, mutation to a neighbor, occasional crossover.
        for (int g = 0; g < params.generations; g++) {
            std::vector<double> f = fitness(population, nullptr);
            std::discrete_distribution<size_t> pick(f.begin(), f.end());
            std::uniform_real_distribution<double> u(0, 1);
            std::set<size_t> next(population.begin(), population.end());  // elitism: parents stay candidates
            std::vector<size_t> children;
            for (size_t i = 0; i < population.size(); i++) {
                size_t parent = population[pick(rng)];
                double r = u(rng);
                if (r < params.mutation_prob) {
                    const auto &nb = neighbors_of(parent);
                    if (!nb.empty()) parent = nb[std::uniform_int_distribution<size_t>(0, nb.size() - 1)(rng)];
                } else if (r < params.mutation_prob + params.crossover_prob) {
                    size_t other = population[pick(rng)];
                    auto a = idx.fields(parent), b = idx.fields(other);
                    for (size_t d = 0; d < a.size(); d++) {
                        if (u(rng) < 0.5) a[d] = b[d];
                    }
                    if (auto c = idx.find(a)) parent = *c;
                }
                children.push_back(parent);
            }
            next.insert(children.begin(), children.end());
            population = survivors(std::vector<size_t>(next.begin(), next.end()));
        }

        // Pick this round's measurements. Shapes take turns, the one with the fewest trials for its
        // share of the family first; each takes its best predicted unmeasured kernel from the
        // population. A few epsilon-greedy random pairs keep the model honest.
        const int want = std::min(params.measures_per_round, total - (int)result.trials.size());
        std::vector<std::vector<double>> scores;
        fitness(population, &scores);
        std::vector<std::pair<size_t, size_t>> batch;
        if (round == 1 && !params.first_round.empty()) {
            // The untuned choices first, all of them (within the budget) in one round.
            for (const auto &key : params.first_round) {
                internal_assert(key.first < space.size() && key.second < shapes) << "Diet: a first-round pair outside the space\n";
                if ((int)batch.size() < total && std::find(batch.begin(), batch.end(), key) == batch.end()) batch.push_back(key);
            }
        }
        const int random_picks = std::max(0, (int)(want * params.eps_greedy + 0.5));
        std::vector<int> trials_at(shapes, 0);
        for (const Trial &t : result.trials) trials_at[t.shape]++;
        const bool preset = !batch.empty();
        for (int stalled = 0; !preset && (int)batch.size() < want - random_picks && stalled < (int)shapes;) {
            size_t s = 0;
            for (size_t c = 1; c < shapes; c++) {
                if (shape_weights[c] / (1 + trials_at[c]) > shape_weights[s] / (1 + trials_at[s])) s = c;
            }
            trials_at[s]++;  // counts this turn, whether or not a kernel is left for the shape
            std::optional<size_t> best;
            for (size_t i = 0; i < population.size(); i++) {
                auto key = std::make_pair(population[i], s);
                if (measured.count(key) || std::find(batch.begin(), batch.end(), key) != batch.end()) continue;
                if (!best || scores[i][s] > scores[*best][s]) best = i;
            }
            if (best) {
                batch.emplace_back(population[*best], s);
                stalled = 0;
            } else {
                stalled++;
            }
        }
        std::uniform_int_distribution<size_t> any_kernel(0, space.size() - 1), any_shape(0, shapes - 1);
        for (int tries = 0; !preset && (int)batch.size() < want && tries < 100000; tries++) {
            auto key = std::make_pair(any_kernel(rng), any_shape(rng));
            if (!measured.count(key) && std::find(batch.begin(), batch.end(), key) == batch.end()) batch.push_back(key);
        }
        if (batch.empty()) break;

        std::vector<std::optional<double>> times = measure(batch);
        internal_assert(times.size() == batch.size()) << "Diet: the measurer returned " << times.size()
                                                      << " results for " << batch.size() << " trials\n";
        for (size_t i = 0; i < batch.size(); i++) {
            measured.insert(batch[i]);
            result.trials.push_back({batch[i].first, batch[i].second, times[i]});
            size_t s = batch[i].second;
            if (times[i] && (!result.best_seconds[s] || *times[i] < *result.best_seconds[s])) {
                result.best_seconds[s] = times[i];
                result.best_kernel[s] = batch[i].first;
            }
        }
        if (learn) learn(result.trials);

        if (report) {
            double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            int done = (int)result.trials.size();
            std::ostringstream o;
            o << "round " << round << ": " << done << "/" << total << " trials";
            int measured_shapes = 0;
            for (const auto &b : result.best_seconds) measured_shapes += b.has_value();
            o << ", " << measured_shapes << "/" << shapes << " shapes measured";
            if (done > 0 && done < total) o << ", ETA " << (int)(elapsed / done * (total - done)) << " s";
            report(o.str());
        }
    }

    // Shapes never measured successfully take the best predicted kernel (the whole space is
    // scored only when some shape needs it: predicting can be expensive).
    bool all_measured = true;
    for (const auto &b : result.best_seconds) all_measured &= b.has_value();
    if (all_measured) return result;
    std::vector<size_t> every(space.size());
    for (size_t i = 0; i < every.size(); i++) every[i] = i;
    auto scores = predict(every);
    for (size_t s = 0; s < shapes; s++) {
        if (result.best_seconds[s]) continue;
        size_t best = 0;
        for (size_t k = 1; k < space.size(); k++) {
            if (scores[k][s] > scores[best][s]) best = k;
        }
        result.best_kernel[s] = best;
    }
    return result;
}

}  // namespace diet
