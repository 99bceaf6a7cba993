#include "cost/BaseModel.h"

#include "search/ModelTraining.h"
#include "space/Hardware.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

namespace diet {

std::string target_class(const Halide::Target &t) {
    const CpuLimits c = CpuLimits::for_target(t, 1, 0);
    std::string arch = t.arch == Halide::Target::X86 ? "x86" : t.arch == Halide::Target::ARM ? "arm" : "other";
    return arch + "-" + std::to_string(t.bits) + "/" + std::to_string(c.vector_bits) + "-bit/" +
           std::to_string(c.vector_registers) + "-vregs";
}

std::string target_class_of_dataset(const DatasetRecord &r) {
    return target_class(Halide::Target(r.target));
}

PackSumModelParams base_model_params(Objective o) {
    // Depth 3: on the committed dataset, depth 3 / 6 / 8 gave a within-shape tau of 0.555 / 0.549 /
    // 0.541 (8-fold) and 0.489 / 0.468 / 0.457 with each family of forms held out (models/README.md).
    PackSumModelParams p = model_params(o);
    p.max_depth = 3;
    p.eta = 0.1;
    p.rounds = 400;
    p.early_stop_rounds = 50;
    p.min_child_weight = 1;
    return p;
}

namespace {

// The directory this code was loaded from (the plugin's, or an executable's that links Diet).
std::string own_directory() {
    Dl_info info;
    if (dladdr((void *)&own_directory, &info) == 0 || !info.dli_fname) return ".";
    std::string f = info.dli_fname;
    if (f.empty() || f[0] != '/') {
        // glibc names the main executable by its argv[0]: a bare name (found on PATH, or an exec
        // of /proc/self/exe with any argv[0]) or a path relative to the start directory. Such a
        // name made a child test process read the model beside its working directory, not its
        // own, and tune differently from its parent. The kernel's link is what was executed.
        char exe[4096];
        const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        const auto base = [](const std::string &p) { return p.substr(p.find_last_of('/') + 1); };
        if (n > 0 && base(std::string(exe, n)) == base(f)) f = std::string(exe, n);
    }
    const size_t slash = f.find_last_of('/');
    return slash == std::string::npos ? "." : f.substr(0, slash);
}

std::string file_name_for(const std::string &cls) {
    std::string n;
    for (char c : cls) n += (c == '/' ? '_' : c);
    return n + ".json";
}

}  // namespace

std::string base_model_path(const std::string &option_value, const Halide::Target &t) {
    if (option_value == "none") return "";
    if (!option_value.empty()) return option_value;
    return own_directory() + "/diet_models/" + file_name_for(target_class(t));
}

ModelInfo shipped_model_info(ModelInfo info, const std::string &target_class, const std::string &features,
                             int64_t trained_on) {
    info.format = kModelFormat;
    info.pipeline = kAnyPipeline;
    info.target = target_class;
    info.features = features;
    info.trained_on = trained_on;
    info.tool_version = kToolVersionForModels;
    return info;
}

std::string base_plan_model_path(const std::string &option_value, const Halide::Target &t) {
    if (option_value == "none") return "";
    if (!option_value.empty()) return option_value;
    return own_directory() + "/diet_models/plans_" + file_name_for(target_class(t));
}

std::unique_ptr<BaseModel> BaseModel::load(const std::string &path, const std::string &cls, std::string *why,
                                           const std::string &features) {
    why->clear();
    struct stat st;
    if (path.empty() || stat(path.c_str(), &st) != 0) return nullptr;
    auto m = std::make_unique<BaseModel>();
    std::string err;
    if (!m->model_.load(path, &err)) {
        *why = err;
        return nullptr;
    }
    const ModelInfo &i = m->model_.info();
    if (i.format != kModelFormat) {
        *why = i.format == 0 ? "an XGBoost model without Diet's attributes"
                             : "a Diet model of format " + std::to_string(i.format) + ", this version reads " +
                                   std::to_string(kModelFormat);
    } else if (i.pipeline != kAnyPipeline) {
        *why = "a model of one pipeline (" + i.pipeline + "), not a shipped model for any pipeline";
    } else if (i.features != features) {
        *why = "a model of " + i.features + " features, not " + (features == "kernel" ? "loop-nest (kernel)" : features) + " features";
    } else if (i.target != cls) {
        *why = "a model for " + i.target + ", not " + cls;
    }
    if (!why->empty()) return nullptr;
    m->path_ = path;
    return m;
}

std::vector<double> BaseModel::predict(const std::vector<KernelAtShape> &ks) const {
    std::vector<FeatureRows> rows;
    for (const KernelAtShape &k : ks) rows.push_back({kernel_features(k)});
    std::vector<double> out;
    for (float s : model_.predict(rows)) out.push_back(throughput_of_label(s * model_.info().label_scale));
    return out;
}

}  // namespace diet
