#include "search/TunerHistory.h"

#include "dispatch/Dispatch.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace diet {

TuningHistory read_tuning_history(const Options &opts, const std::string &fingerprint, const Halide::Target &target) {
    TuningHistory history;
    LogContents &log = history.log;
    std::string &log_path = history.log_path;
    std::map<std::string, TuningRecord> &logged = history.logged;
    log_path = opts.log_path;
    if (!log_path.empty()) {
        log = read_log(log_path);
        if (log.foreign) {
            std::cerr << "[diet] warning: the tuning log " << log_path << " is " << log.summary()
                      << "; tuning without a log (name another file in HL_DIET_LOG)\n";
            log_path.clear();
        } else {
            int ignored = 0;
            for (const TuningRecord &r : log.records) {
                if (r.pipeline != fingerprint || r.target != target.to_string()) {
                    ignored++;
                    continue;
                }
                logged[ShapeFamily::to_string(Shape(r.shape.begin(), r.shape.end())) + "|" + r.micro_kernel] = r;
            }
            const std::string more = log.summary(ignored);
            std::cerr << "[diet] tuning log " << log_path << ": " << logged.size()
                      << " record(s) of this pipeline and target" << (more.empty() ? "" : "; " + more) << "\n";
        }
    }
    return history;
}

std::string dispatch_key(const ShapeFamily &family, const std::vector<Shape> &training, const Options &opts) {
    std::ostringstream o;
    for (const ShapeVar &v : family.vars) {
        o << v.name << "=" << v.values.front() << ".." << v.values.back() << "(" << v.values.size() << ") ";
    }
    o << "training";
    for (const Shape &s : training) o << " [" << ShapeFamily::to_string(s) << "]";
    o << " max_kernels " << opts.max_kernels;
    return o.str();
}

bool replay_recorded_dispatch(const TuningHistory &history, const std::string &fingerprint,
                              const Halide::Target &target, const std::string &family_key,
                              const std::vector<KernelChoice> &initial, const Options &opts, TuneResult &result) {
    const LogContents &log = history.log;
    const std::string &log_path = history.log_path;
    std::vector<const DispatchRecord *> found(initial.size(), nullptr);
    for (const DispatchRecord &d : log.dispatches) {
        if (d.pipeline == fingerprint && d.target == target.to_string() && d.family == family_key &&
            d.stage >= 0 && d.stage < (int)initial.size()) {
            found[d.stage] = &d;  // the latest wins
        }
    }
    if (std::all_of(found.begin(), found.end(), [](const DispatchRecord *d) { return d != nullptr; })) {
        for (size_t pi = 0; pi < initial.size(); pi++) {
            result.kernels[pi].dispatch = dispatch_from_json(found[pi]->dispatch, "the tuning log " + opts.log_path);
            result.kernels[pi].chosen_by = "tuning (recorded in the tuning log)";
            result.report["stages"].push_back({{"stage", initial[pi].pattern.acc}, {"dispatch", found[pi]->dispatch},
                                               {"replayed_from_log", true}});
        }
        result.report["measurements"] = 0;
        result.report["replayed_from_log"] = log_path;
        std::cerr << "[diet] applying the dispatch recorded in " << log_path << " (no measurement)\n";
        return true;
    }
    return false;
}

}  // namespace diet
