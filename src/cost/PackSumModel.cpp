#include "cost/PackSumModel.h"

#include "Halide.h"
#include "common/Errors.h"

#include <xgboost/c_api.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <random>

namespace diet {

namespace {

void check(int rc, const char *what) {
    user_assert(rc == 0) << "Diet: XGBoost " << what << " failed: " << XGBGetLastError() << "\n";
}

// All rows of all programs as one dense matrix, with the program each row belongs to.
struct PackedRows {
    std::vector<float> data;
    std::vector<size_t> program_of_row;
    size_t width = 0;
};

PackedRows pack(const std::vector<FeatureRows> &programs) {
    PackedRows p;
    for (size_t i = 0; i < programs.size(); i++) {
        for (const auto &row : programs[i]) {
            if (p.width == 0) p.width = row.size();
            user_assert(row.size() == p.width) << "Diet: feature rows of different widths (" << row.size() << " vs "
                                               << p.width << ")\n";
            p.data.insert(p.data.end(), row.begin(), row.end());
            p.program_of_row.push_back(i);
        }
    }
    return p;
}

struct DMatrix {
    DMatrixHandle h = nullptr;
    explicit DMatrix(const PackedRows &p) {
        check(XGDMatrixCreateFromMat(p.data.data(), p.program_of_row.size(), p.width, NAN, &h), "DMatrix");
    }
    ~DMatrix() {
        if (h) XGDMatrixFree(h);
    }
};

std::vector<float> row_margins(BoosterHandle b, const DMatrix &m, size_t rows) {
    bst_ulong len = 0;
    const float *out = nullptr;
    // option 1: raw margins (no transformation); training=1 keeps it deterministic with dropout-free trees.
    check(XGBoosterPredict(b, m.h, 1, 0, 1, &len, &out), "predict");
    internal_assert(len == rows);
    return std::vector<float>(out, out + len);
}

std::vector<float> sum_per_program(const std::vector<float> &rows, const std::vector<size_t> &program_of_row,
                                   size_t programs) {
    std::vector<float> s(programs, 0.f);
    for (size_t r = 0; r < rows.size(); r++) s[program_of_row[r]] += rows[r];
    return s;
}

}  // namespace

const char *objective_name(Objective o) {
    return o == Objective::PairwiseRank ? "pairwise" : "regression";
}

Objective objective_from_name(const std::string &name) {
    if (name == "pairwise") return Objective::PairwiseRank;
    if (name == "regression") return Objective::Regression;
    user_error << "Diet: unknown cost-model objective '" << name << "' (use pairwise or regression)\n";
    return Objective::Regression;
}

namespace {

// Ordered pairs (better, worse) within each group, weighted by their label difference.
struct RankPair {
    size_t better, worse;
    float weight;
};

std::vector<RankPair> rank_pairs(const std::vector<float> &y, const std::vector<size_t> &groups) {
    std::map<size_t, std::vector<size_t>> members;
    for (size_t i = 0; i < y.size(); i++) members[groups.empty() ? 0 : groups[i]].push_back(i);
    std::vector<RankPair> pairs;
    for (const auto &[g, ix] : members) {
        for (size_t a = 0; a < ix.size(); a++) {
            for (size_t b = a + 1; b < ix.size(); b++) {
                const size_t i = ix[a], j = ix[b];
                const float d = y[i] - y[j];
                if (std::fabs(d) < 1e-6f) continue;
                pairs.push_back(d > 0 ? RankPair{i, j, std::fabs(d)} : RankPair{j, i, std::fabs(d)});
            }
        }
    }
    return pairs;
}

}  // namespace

PackSumModel::PackSumModel(PackSumModelParams p) : params_(p) {}

PackSumModel::~PackSumModel() {
    reset();
}

void PackSumModel::reset() {
    if (booster_) XGBoosterFree((BoosterHandle)booster_);
    booster_ = nullptr;
}

void PackSumModel::train(const std::vector<FeatureRows> &programs, const std::vector<float> &labels,
                         const std::vector<size_t> &groups) {
    user_assert(groups.empty() || groups.size() == labels.size()) << "Diet: " << labels.size() << " labels but "
                                                                   << groups.size() << " groups\n";
    calibration_a_ = 1.0;
    calibration_b_ = 0.0;
    user_assert(programs.size() == labels.size()) << "Diet: " << programs.size() << " programs but " << labels.size()
                                                  << " labels\n";
    reset();
    training_programs_ = programs.size();
    if (programs.empty()) return;
    PackedRows rows = pack(programs);
    if (rows.program_of_row.empty()) return;
    DMatrix dtrain(rows);
    BoosterHandle b = nullptr;
    check(XGBoosterCreate(&dtrain.h, 1, &b), "create");
    booster_ = b;
    auto set = [&](const char *k, const std::string &v) { check(XGBoosterSetParam(b, k, v.c_str()), k); };
    set("max_depth", std::to_string(params_.max_depth));
    set("eta", std::to_string(params_.eta));
    set("gamma", std::to_string(params_.gamma));
    set("min_child_weight", std::to_string(params_.min_child_weight));
    set("seed", std::to_string(params_.seed));
    set("nthread", std::to_string(params_.threads));
    set("base_score", "0");
    set("verbosity", "0");
    set("disable_default_eval_metric", "1");

    // Labels normalized to (0, 1] so that the weights (= labels) are comparable across runs.
    float top = 0;
    for (float y : labels) top = std::max(top, y);
    std::vector<float> y(labels.size());
    for (size_t i = 0; i < labels.size(); i++) y[i] = top > 0 ? std::max(0.f, labels[i]) / top : 0.f;

    const size_t n = rows.program_of_row.size();
    const bool rank = params_.objective == Objective::PairwiseRank;
    const std::vector<RankPair> pairs = rank ? rank_pairs(y, groups) : std::vector<RankPair>{};
    if (rank && pairs.empty()) {  // nothing to order: no model rather than a constant one
        reset();
        return;
    }
    std::vector<float> grad(n), hess(n), pgrad(programs.size()), phess(programs.size());
    double best_loss = INFINITY;
    int best_round = 0;
    rounds_used_ = 0;
    for (int round = 0; round < params_.rounds; round++) {
        std::vector<float> sums = sum_per_program(row_margins(b, dtrain, n), rows.program_of_row, programs.size());
        double loss = 0;
        if (rank) {
            std::fill(pgrad.begin(), pgrad.end(), 0.f);
            std::fill(phess.begin(), phess.end(), 0.f);
            double wsum = 0;
            for (const RankPair &pr : pairs) {
                const double margin = sums[pr.better] - sums[pr.worse];
                const double p_wrong = 1.0 / (1.0 + std::exp(margin));  // sigmoid(-margin)
                loss += pr.weight * std::log1p(std::exp(-std::fabs(margin))) + pr.weight * std::max(0.0, -margin);
                wsum += pr.weight;
                pgrad[pr.better] -= (float)(pr.weight * p_wrong);
                pgrad[pr.worse] += (float)(pr.weight * p_wrong);
                const float h = (float)(pr.weight * std::max(p_wrong * (1 - p_wrong), 1e-6));
                phess[pr.better] += h;
                phess[pr.worse] += h;
            }
            loss /= std::max(wsum, 1e-12);
        } else {
            for (size_t i = 0; i < sums.size(); i++) loss += (sums[i] - y[i]) * (sums[i] - y[i]);
            loss = std::sqrt(loss / sums.size());
        }
        if (loss < best_loss - 1e-9) {
            best_loss = loss;
            best_round = round;
        } else if (round - best_round >= params_.early_stop_rounds) {
            break;
        }
        for (size_t r = 0; r < n; r++) {
            size_t p = rows.program_of_row[r];
            if (rank) {
                grad[r] = pgrad[p];
                hess[r] = std::max(phess[p], 1e-6f);
            } else {
                float w = std::max(y[p], 1e-3f);  // a zero weight would drop the program entirely
                grad[r] = (sums[p] - y[p]) * w;
                hess[r] = w;
            }
        }
        check(XGBoosterBoostOneIter(b, dtrain.h, grad.data(), hess.data(), n), "boost");
        rounds_used_ = round + 1;
    }
    if (rank) {
        // Scores back onto the label scale: least squares of the (normalized) label on the score.
        std::vector<float> sums = sum_per_program(row_margins(b, dtrain, n), rows.program_of_row, programs.size());
        double ms = 0, my = 0;
        for (size_t i = 0; i < sums.size(); i++) {
            ms += sums[i];
            my += y[i];
        }
        ms /= sums.size();
        my /= sums.size();
        double sxy = 0, sxx = 0;
        for (size_t i = 0; i < sums.size(); i++) {
            sxy += (sums[i] - ms) * (y[i] - my);
            sxx += (sums[i] - ms) * (sums[i] - ms);
        }
        // A non-positive slope would reverse the order the model learned: keep the order instead.
        calibration_a_ = sxx > 0 && sxy > 0 ? sxy / sxx : 1e-3;
        calibration_b_ = my - calibration_a_ * ms;
    }
}

std::vector<float> PackSumModel::predict(const std::vector<FeatureRows> &programs) const {
    if (!booster_ || training_programs_ < (size_t)params_.warmup_programs) {
        // Not enough data to trust a model: seeded noise keeps the search exploring, reproducibly.
        std::mt19937_64 rng(params_.seed + programs.size());
        std::uniform_real_distribution<float> u(0.f, 1.f);
        std::vector<float> s(programs.size());
        for (float &v : s) v = u(rng);
        return s;
    }
    PackedRows rows = pack(programs);
    if (rows.program_of_row.empty()) return std::vector<float>(programs.size(), 0.f);
    DMatrix m(rows);
    std::vector<float> s = sum_per_program(row_margins((BoosterHandle)booster_, m, rows.program_of_row.size()),
                                           rows.program_of_row, programs.size());
    if (params_.objective == Objective::PairwiseRank) {
        for (float &v : s) v = (float)(calibration_a_ * v + calibration_b_);
    }
    return s;
}

namespace {

std::string extension_of(const std::string &path) {
    const size_t dot = path.find_last_of('.'), slash = path.find_last_of('/');
    return (dot != std::string::npos && (slash == std::string::npos || dot > slash)) ? path.substr(dot) : "";
}

std::optional<std::string> get_attr(BoosterHandle b, const char *key) {
    const char *out = nullptr;
    int success = 0;
    if (XGBoosterGetAttr(b, key, &out, &success) != 0 || !success || !out) return std::nullopt;
    return std::string(out);
}

ModelInfo info_of(BoosterHandle b) {
    ModelInfo i;
    try {
        if (auto f = get_attr(b, "diet_model_format")) i.format = std::stoi(*f);
        if (auto v = get_attr(b, "diet_pipeline")) i.pipeline = *v;
        if (auto v = get_attr(b, "diet_target")) i.target = *v;
        if (auto v = get_attr(b, "diet_trained_on")) i.trained_on = std::stoll(*v);
        if (auto v = get_attr(b, "diet_label_scale")) i.label_scale = std::stod(*v);
        if (auto v = get_attr(b, "diet_tool_version")) i.tool_version = *v;
        if (auto v = get_attr(b, "diet_objective")) i.objective = *v;
        if (auto v = get_attr(b, "diet_features")) i.features = *v;
    } catch (const std::exception &) {
        i.format = -1;  // attributes that do not parse: not a model this version can use
    }
    return i;
}

}  // namespace

void PackSumModel::save(const std::string &path) const {
    user_assert(booster_) << "Diet: cannot save an untrained cost model to " << path << "\n";
    BoosterHandle b = (BoosterHandle)booster_;
    char scale[64];
    std::snprintf(scale, sizeof scale, "%.17g", info_.label_scale);
    check(XGBoosterSetAttr(b, "diet_model_format", std::to_string(kModelFormat).c_str()), "set attribute");
    check(XGBoosterSetAttr(b, "diet_pipeline", info_.pipeline.c_str()), "set attribute");
    check(XGBoosterSetAttr(b, "diet_target", info_.target.c_str()), "set attribute");
    check(XGBoosterSetAttr(b, "diet_trained_on", std::to_string(info_.trained_on).c_str()), "set attribute");
    check(XGBoosterSetAttr(b, "diet_label_scale", scale), "set attribute");
    check(XGBoosterSetAttr(b, "diet_objective", objective_name(params_.objective)), "set attribute");
    check(XGBoosterSetAttr(b, "diet_features", info_.features.c_str()), "set attribute");
    char calib[96];
    std::snprintf(calib, sizeof calib, "%.17g %.17g", calibration_a_, calibration_b_);
    check(XGBoosterSetAttr(b, "diet_calibration", calib), "set attribute");
    check(XGBoosterSetAttr(b, "diet_tool_version", info_.tool_version.empty() ? "diet 0.1.0" : info_.tool_version.c_str()),
          "set attribute");
    // XGBoost picks the format from the file name's extension (".json", ".ubj", else binary), so
    // the temporary keeps it: model.json is written as model.json.tmp<pid>.json.
    const std::string tmp = path + ".tmp" + std::to_string((long)getpid()) + extension_of(path);
    if (XGBoosterSaveModel(b, tmp.c_str()) != 0) {
        std::remove(tmp.c_str());
        check(-1, "save");
    }
    // On disk before it replaces the old file: a crash leaves the old model or the new one.
    int fd = open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        user_error << "Diet: cannot move " << tmp << " to " << path << "\n";
    }
}

bool PackSumModel::load(const std::string &path, std::string *why) {
    if (FILE *f = std::fopen(path.c_str(), "rb")) {
        std::fclose(f);
    } else {
        if (why) *why = "cannot open " + path;
        return false;
    }
    BoosterHandle b = nullptr;
    if (XGBoosterCreate(nullptr, 0, &b) != 0 || XGBoosterLoadModel(b, path.c_str()) != 0) {
        if (why) {
            std::string e = XGBGetLastError();  // its first line: the rest is a stack trace
            *why = "not an XGBoost model: " + e.substr(0, e.find('\n'));
        }
        if (b) XGBoosterFree(b);
        return false;
    }
    reset();
    booster_ = b;
    info_ = info_of(b);
    // A model predicts as it was trained: its objective and calibration come from the file.
    params_.objective = info_.objective == "pairwise" ? Objective::PairwiseRank : Objective::Regression;
    calibration_a_ = 1.0;
    calibration_b_ = 0.0;
    if (auto c = get_attr(b, "diet_calibration")) std::sscanf(c->c_str(), "%lf %lf", &calibration_a_, &calibration_b_);
    training_programs_ = (size_t)params_.warmup_programs;  // a saved model is past its warm-up
    return true;
}

ModelFile inspect_model_file(const std::string &path, const std::string &pipeline, const std::string &target) {
    ModelFile f;
    struct stat st;
    if (stat(path.c_str(), &st) != 0 && errno == ENOENT) return f;
    PackSumModel m;
    std::string why;
    if (!m.load(path, &why)) {
        f.state = ModelFile::Unreadable;
        f.why = why;
        return f;
    }
    f.info = m.info();
    f.state = ModelFile::Foreign;
    if (f.info.format == 0) {
        f.why = "an XGBoost model without Diet's attributes (another program's, or written by an older Diet)";
    } else if (f.info.format != kModelFormat) {
        f.why = "a Diet cost model of format " + std::to_string(f.info.format) + " (" + f.info.tool_version +
                "); this version reads format " + std::to_string(kModelFormat);
    } else if (f.info.target != target) {
        f.why = "a Diet cost model for the target " + f.info.target + ", not " + target;
    } else if (f.info.pipeline != pipeline) {
        f.why = "a Diet cost model of another pipeline (" + f.info.pipeline + ", not " + pipeline + ")";
    } else {
        f.state = ModelFile::Usable;
    }
    return f;
}

std::string model_sibling_path(const std::string &path) {
    const std::string ext = extension_of(path);
    return path.substr(0, path.size() - ext.size()) + ".diet-new" + ext;
}

std::string save_model_with_policy(const PackSumModel &m, const std::string &path, std::string *message) {
    const ModelInfo &mine = m.info();
    const std::string n = std::to_string(mine.trained_on);
    // Whether `p` may be replaced by `m`, and if not why.
    auto may_replace = [&](const std::string &p, std::string *why) {
        ModelFile f = inspect_model_file(p, mine.pipeline, mine.target);
        switch (f.state) {
        case ModelFile::Missing: return true;
        case ModelFile::Usable:
            if (f.info.trained_on <= mine.trained_on) return true;
            *why = "it holds a model trained on " + std::to_string(f.info.trained_on) + " measurements, this one on " + n;
            return false;
        case ModelFile::Unreadable:
        case ModelFile::Foreign: *why = "it is " + f.why; return false;
        }
        return false;
    };
    std::string why;
    if (may_replace(path, &why)) {
        m.save(path);
        *message = "cost model (trained on " + n + " measurements) saved to " + path;
        return path;
    }
    const std::string sibling = model_sibling_path(path);
    std::string why_sibling;
    if (may_replace(sibling, &why_sibling)) {
        m.save(sibling);
        *message = "warning: the cost model file " + path + " is left as it was (" + why +
                   "); this run's model (trained on " + n + " measurements) was saved to " + sibling;
        return sibling;
    }
    *message = "warning: the cost model was not saved: " + path + " is left as it was (" + why + "), and so is " +
               sibling + " (" + why_sibling + ")";
    return "";
}

double kendall_tau(const std::vector<double> &a, const std::vector<double> &b) {
    internal_assert(a.size() == b.size());
    double concordant = 0, discordant = 0, ties_a = 0, ties_b = 0;
    for (size_t i = 0; i < a.size(); i++) {
        for (size_t j = i + 1; j < a.size(); j++) {
            double da = a[i] - a[j], db = b[i] - b[j];
            if (da == 0 && db == 0) continue;
            if (da == 0) {
                ties_a++;
            } else if (db == 0) {
                ties_b++;
            } else if ((da > 0) == (db > 0)) {
                concordant++;
            } else {
                discordant++;
            }
        }
    }
    double denom = std::sqrt((concordant + discordant + ties_a) * (concordant + discordant + ties_b));
    return denom > 0 ? (concordant - discordant) / denom : 0.0;
}

}  // namespace diet
