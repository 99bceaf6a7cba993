#include "measure/Manifest.h"
#include "measure/TuningLog.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>

namespace diet {

nlohmann::json manifest_to_json(const BatchManifest &m) {
    nlohmann::json j;
    j["format"] = kManifestFormat;
    j["tool_version"] = m.tool_version;
    j["pipeline"] = m.pipeline;
    j["target"] = m.target;
    j["cuda"] = m.cuda;
    j["timing"] = {{"warmup_runs", m.timing.warmup_runs},
                   {"min_repeats", m.timing.min_repeats},
                   {"max_repeats", m.timing.max_repeats},
                   {"min_seconds", m.timing.min_seconds}};
    j["timeout_seconds"] = m.timeout_seconds;
    j["cold_l2"] = m.cold_l2;
    j["seed"] = m.seed;
    j["shapes"] = nlohmann::json::array();
    for (const BatchShape &s : m.shapes) {
        j["shapes"].push_back({{"shape", s.shape},
                               {"args", s.args},
                               {"reference_library", s.reference_library},
                               {"reference_symbol", s.reference_symbol},
                               {"reference_error", s.reference_error}});
    }
    j["entries"] = nlohmann::json::array();
    for (const BatchEntry &e : m.entries) {
        j["entries"].push_back({{"id", e.id},
                                {"micro_kernel", e.micro_kernel},
                                {"features_digest", e.features_digest},
                                {"shape_index", e.shape_index},
                                {"library", e.library},
                                {"symbol", e.symbol},
                                {"build_error", e.build_error}});
    }
    return j;
}

bool manifest_from_json(const nlohmann::json &j, BatchManifest *m, std::string *why) {
    try {
        if (j.at("format").get<std::string>() != kManifestFormat) {
            *why = "format " + j.at("format").dump() + ", expected \"" + kManifestFormat + "\"";
            return false;
        }
        BatchManifest out;
        out.tool_version = j.at("tool_version").get<std::string>();
        out.pipeline = j.at("pipeline").get<std::string>();
        out.target = j.at("target").get<std::string>();
        out.cuda = j.at("cuda").get<bool>();
        const nlohmann::json &t = j.at("timing");
        out.timing.warmup_runs = t.at("warmup_runs").get<int>();
        out.timing.min_repeats = t.at("min_repeats").get<int>();
        out.timing.max_repeats = t.at("max_repeats").get<int>();
        out.timing.min_seconds = t.at("min_seconds").get<double>();
        out.timeout_seconds = j.at("timeout_seconds").get<double>();
        out.cold_l2 = j.at("cold_l2").get<bool>();
        out.seed = j.at("seed").get<uint64_t>();
        for (const nlohmann::json &s : j.at("shapes")) {
            BatchShape bs;
            bs.shape = s.at("shape").get<std::map<std::string, int64_t>>();
            bs.args = s.at("args").get<std::vector<ArgSpec>>();
            bs.reference_library = s.at("reference_library").get<std::string>();
            bs.reference_symbol = s.at("reference_symbol").get<std::string>();
            bs.reference_error = s.value("reference_error", std::string());
            out.shapes.push_back(bs);
        }
        for (const nlohmann::json &e : j.at("entries")) {
            BatchEntry be;
            be.id = e.at("id").get<std::string>();
            be.micro_kernel = e.at("micro_kernel").get<std::string>();
            be.features_digest = e.at("features_digest").get<std::string>();
            be.shape_index = e.at("shape_index").get<int>();
            be.library = e.at("library").get<std::string>();
            be.symbol = e.at("symbol").get<std::string>();
            be.build_error = e.value("build_error", std::string());
            if (be.shape_index < 0 || be.shape_index >= (int)out.shapes.size()) {
                *why = "entry " + be.id + " names shape " + std::to_string(be.shape_index) + ", which does not exist";
                return false;
            }
            out.entries.push_back(be);
        }
        *m = out;
        return true;
    } catch (const std::exception &e) {
        *why = e.what();
        return false;
    }
}

nlohmann::json results_to_json(const std::vector<BatchResult> &results, const std::string &machine) {
    nlohmann::json j;
    j["format"] = kResultsFormat;
    j["tool_version"] = kToolVersion;
    j["machine"] = machine;
    j["results"] = nlohmann::json::array();
    for (const BatchResult &r : results) {
        j["results"].push_back({{"id", r.id},
                                {"median_seconds", r.outcome.median_seconds},
                                {"repeats", r.outcome.repeats},
                                {"max_rel_error", r.outcome.max_rel_error},
                                {"mode", r.outcome.mode},
                                {"error", r.outcome.error}});
    }
    return j;
}

bool results_from_json(const nlohmann::json &j, std::vector<BatchResult> *results, std::string *why) {
    try {
        if (j.at("format").get<std::string>() != kResultsFormat) {
            *why = "format " + j.at("format").dump() + ", expected \"" + kResultsFormat + "\"";
            return false;
        }
        std::vector<BatchResult> out;
        for (const nlohmann::json &r : j.at("results")) {
            BatchResult b;
            b.id = r.at("id").get<std::string>();
            b.outcome.median_seconds = r.at("median_seconds").get<double>();
            b.outcome.repeats = r.at("repeats").get<int>();
            b.outcome.max_rel_error = r.at("max_rel_error").get<double>();
            b.outcome.mode = r.at("mode").get<std::string>();
            b.outcome.error = r.at("error").get<std::string>();
            out.push_back(b);
        }
        *results = out;
        return true;
    } catch (const std::exception &e) {
        *why = e.what();
        return false;
    }
}

bool read_json_file(const std::string &path, nlohmann::json *j, std::string *why) {
    std::ifstream in(path);
    if (!in) {
        *why = "cannot read " + path;
        return false;
    }
    *j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j->is_discarded()) {
        *why = path + " is not valid JSON";
        return false;
    }
    return true;
}

bool write_json_file(const std::string &path, const nlohmann::json &j, std::string *why) {
    std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(tmp);
        out << j.dump(2) << "\n";
        out.flush();
        if (!out) {
            *why = "cannot write " + tmp;
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        *why = "cannot rename " + tmp + " to " + path + ": " + std::strerror(errno);
        unlink(tmp.c_str());
        return false;
    }
    return true;
}

TuningRecord record_of(const BatchManifest &m, const BatchEntry &e, const Outcome &o) {
    TuningRecord r;
    r.pipeline = m.pipeline;
    r.target = m.target;
    r.shape = m.shapes.at(e.shape_index).shape;
    r.micro_kernel = e.micro_kernel;
    r.features_digest = e.features_digest;
    r.median_seconds = o.median_seconds;
    r.repeats = o.repeats;
    r.max_rel_error = o.max_rel_error;
    r.mode = o.mode;
    r.error = o.error;
    r.tool_version = m.tool_version;
    r.unix_time = (int64_t)std::time(nullptr);
    return r;
}

}  // namespace diet
