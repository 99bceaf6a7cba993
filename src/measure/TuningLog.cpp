#include "measure/TuningLog.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

namespace diet {

nlohmann::json record_to_json(const TuningRecord &r) {
    nlohmann::json j;
    j["format"] = kLogFormat;
    j["pipeline"] = r.pipeline;
    j["target"] = r.target;
    j["shape"] = r.shape;
    j["micro_kernel"] = r.micro_kernel;
    j["features_digest"] = r.features_digest;
    j["median_seconds"] = r.median_seconds;
    j["repeats"] = r.repeats;
    j["max_rel_error"] = r.max_rel_error;
    j["mode"] = r.mode;
    j["error"] = r.error;
    j["tool_version"] = r.tool_version;
    j["unix_time"] = r.unix_time;
    return j;
}

bool record_from_json(const nlohmann::json &j, TuningRecord *r, std::string *why) {
    if (!j.is_object()) {
        *why = "not a JSON object";
        return false;
    }
    auto field = [&](const char *name, nlohmann::json::value_t type, bool number = false) -> const nlohmann::json * {
        auto it = j.find(name);
        if (it == j.end()) {
            *why = std::string("no field \"") + name + "\"";
            return nullptr;
        }
        if (number ? !it->is_number() : it->type() != type) {
            *why = std::string("field \"") + name + "\" has the wrong type";
            return nullptr;
        }
        return &*it;
    };
    using V = nlohmann::json::value_t;
    const nlohmann::json *pipeline = field("pipeline", V::string), *target = field("target", V::string);
    if (!pipeline || !target) return false;
    const nlohmann::json *shape = field("shape", V::object), *mk = field("micro_kernel", V::string);
    if (!shape || !mk) return false;
    const nlohmann::json *fd = field("features_digest", V::string),
                         *med = field("median_seconds", V::number_float, true);
    if (!fd || !med) return false;
    const nlohmann::json *reps = field("repeats", V::number_integer, true), *err = field("error", V::string);
    if (!reps || !err) return false;
    const nlohmann::json *version = field("tool_version", V::string);
    if (!version) return false;
    TuningRecord out;
    out.pipeline = pipeline->get<std::string>();
    out.target = target->get<std::string>();
    for (auto it = shape->begin(); it != shape->end(); ++it) {
        if (!it->is_number_integer()) {
            *why = "shape value of " + it.key() + " is not an integer";
            return false;
        }
        out.shape[it.key()] = it->get<int64_t>();
    }
    out.micro_kernel = mk->get<std::string>();
    out.features_digest = fd->get<std::string>();
    out.median_seconds = med->get<double>();
    out.repeats = reps->get<int>();
    out.error = err->get<std::string>();
    out.tool_version = version->get<std::string>();
    // Optional fields (absent in hand-written or older records).
    out.max_rel_error = j.value("max_rel_error", 0.0);
    out.mode = j.value("mode", std::string());
    out.unix_time = j.value("unix_time", (int64_t)0);
    *r = out;
    return true;
}

namespace {
bool append_line(const std::string &path, std::string line);
}  // namespace

bool append_record(const std::string &path, const TuningRecord &r) {
    return append_line(path, record_to_json(r).dump() + "\n");
}

bool append_dispatch(const std::string &path, const DispatchRecord &d) {
    nlohmann::json j = {{"kind", "dispatch"},       {"pipeline", d.pipeline}, {"target", d.target},
                        {"stage", d.stage},         {"family", d.family},     {"dispatch", d.dispatch},
                        {"tool_version", d.tool_version}, {"unix_time", d.unix_time}};
    return append_line(path, j.dump() + "\n");
}

namespace {
bool append_line(const std::string &path, std::string line) {
    // Read-write: the last byte is read back below (pread needs a readable descriptor).
    int fd = open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::cerr << "Diet: warning: cannot open the tuning log " << path << ": " << std::strerror(errno) << "\n";
        return false;
    }
    // A writer that died mid-line leaves no final newline; start on a fresh line so that the
    // truncated record stays the only casualty. (Two writers may both add one: an empty line is
    // harmless.)
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        char last = '\n';
        if (pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n') line = "\n" + line;
    }
    // One write of the whole line: with O_APPEND, Linux places it at the end under the inode lock,
    // so concurrent writers (several tuners, a runner's import) never interleave within a line.
    ssize_t w;
    do {
        w = write(fd, line.data(), line.size());
    } while (w < 0 && errno == EINTR);
    bool ok = w == (ssize_t)line.size();
    if (!ok) {
        std::cerr << "Diet: warning: the tuning log " << path << " was not fully written"
                  << (w < 0 ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
    }
    if (fsync(fd) != 0) ok = false;
    close(fd);
    return ok;
}
}  // namespace

LogContents read_log(const std::string &path) {
    LogContents c;
    std::ifstream in(path, std::ios::binary);
    if (!in) return c;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        number++;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        TuningRecord r;
        std::string why = "not valid JSON (truncated or corrupt)";
        const bool is_dispatch = !j.is_discarded() && j.is_object() && j.value("kind", std::string()) == "dispatch";
        bool ok = false;
        if (is_dispatch) {
            try {
                DispatchRecord d;
                d.pipeline = j.at("pipeline").get<std::string>();
                d.target = j.at("target").get<std::string>();
                d.stage = j.at("stage").get<int>();
                d.family = j.at("family").get<std::string>();
                d.dispatch = j.at("dispatch");
                d.tool_version = j.at("tool_version").get<std::string>();
                d.unix_time = j.value("unix_time", (int64_t)0);
                c.dispatches.push_back(std::move(d));
                ok = true;
            } catch (const nlohmann::json::exception &e) {
                why = std::string("malformed dispatch decision: ") + e.what();
            }
        } else if (!j.is_discarded() && record_from_json(j, &r, &why)) {
            c.records.push_back(std::move(r));
            ok = true;
        }
        if (!ok) {
            c.skipped++;
            std::cerr << "Diet: warning: " << path << ":" << number << ": skipping a tuning-log record: " << why
                      << "\n";
        }
    }
    return c;
}

}  // namespace diet
