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

constexpr const char *kHeaderKind = "diet-tuning-log";
constexpr size_t kMaxFirstLine = 1 << 20;

// What one parsed line is.
enum class LineKind { Header, Dispatch, Record, Other };

LineKind kind_of(const nlohmann::json &j) {
    if (j.is_discarded() || !j.is_object()) return LineKind::Other;
    auto k = j.find("kind");
    if (k != j.end() && k->is_string()) {
        if (*k == kHeaderKind) return LineKind::Header;
        if (*k == "dispatch") return LineKind::Dispatch;
        return LineKind::Other;
    }
    return LineKind::Record;
}

// Whether a (first) line shows a Diet log: the header, or a record or dispatch decision of any
// format (logs written before the header existed start with one).
bool is_diet_line(const std::string &line, std::string *why) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    LineKind k = kind_of(j);
    if (k == LineKind::Header) return true;
    if (k == LineKind::Dispatch || k == LineKind::Record) {
        auto is_string = [&](const char *f) { return j.contains(f) && j[f].is_string(); };
        if (is_string("pipeline") && is_string("target") && (k == LineKind::Dispatch || j.contains("micro_kernel"))) {
            return true;
        }
    }
    if (why) {
        if (j.is_discarded()) {
            *why = "its first line is not JSON";
        } else {
            *why = "its first line is JSON but neither a Diet log header nor a Diet record";
        }
    }
    return false;
}

bool blank(const std::string &line) {
    return line.find_first_not_of(" \t\r\n") == std::string::npos;
}

// The first non-blank line of the file open as `fd` (without its newline). Returns false when the
// file is blank; *too_long when no newline comes within kMaxFirstLine bytes.
bool first_line_of(int fd, std::string *line, bool *too_long) {
    std::string buf;
    off_t at = 0;
    char chunk[65536];
    *too_long = false;
    for (;;) {
        ssize_t n = pread(fd, chunk, sizeof chunk, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        at += n;
        buf.append(chunk, (size_t)n);
        // Drop the leading blank lines.
        size_t nl;
        while ((nl = buf.find('\n')) != std::string::npos) {
            if (!blank(buf.substr(0, nl))) {
                *line = buf.substr(0, nl);
                return true;
            }
            buf.erase(0, nl + 1);
        }
        if (buf.size() > kMaxFirstLine) {
            *too_long = true;
            *line = buf.substr(0, 64);
            return true;
        }
    }
    if (blank(buf)) return false;
    *line = buf;  // the whole file is one unterminated line
    return true;
}

// Appendable: blank, or a Diet log. *empty: blank (a header goes first).
bool check_appendable(int fd, bool *empty, std::string *why) {
    std::string line;
    bool too_long = false;
    *empty = !first_line_of(fd, &line, &too_long);
    if (*empty) return true;
    if (too_long) {
        if (why) *why = "its first line is longer than 1 MiB";
        return false;
    }
    return is_diet_line(line, why);
}

}  // namespace

std::string log_header_line() {
    // Written by hand (not dumped) so that every Diet log starts with the same bytes.
    return std::string("{\"kind\":\"") + kHeaderKind + "\",\"format\":" + std::to_string(kLogFormat) +
           ",\"tool_version\":\"" + kToolVersion + "\"}\n";
}

bool is_diet_log(const std::string &path, std::string *why) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT;
    bool empty = false;
    bool ok = check_appendable(fd, &empty, why);
    close(fd);
    return ok;
}

bool append_record(const std::string &path, const TuningRecord &r) {
    return append_line(path, record_to_json(r).dump() + "\n");
}

bool append_dispatch(const std::string &path, const DispatchRecord &d) {
    nlohmann::json j = {{"kind", "dispatch"},       {"format", kLogFormat},   {"pipeline", d.pipeline},
                        {"target", d.target},       {"stage", d.stage},       {"family", d.family},
                        {"dispatch", d.dispatch},   {"tool_version", d.tool_version}, {"unix_time", d.unix_time}};
    return append_line(path, j.dump() + "\n");
}

namespace {
bool append_line(const std::string &path, std::string line) {
    // Read-write: the file's first line and last byte are read back below (pread needs a readable
    // descriptor).
    int fd = open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::cerr << "Diet: warning: cannot open the tuning log " << path << ": " << std::strerror(errno) << "\n";
        return false;
    }
    // Someone else's file is never appended to.
    bool empty = false;
    std::string why;
    if (!check_appendable(fd, &empty, &why)) {
        close(fd);
        std::cerr << "Diet: warning: " << path << " is not a Diet tuning log (" << why
                  << "); not appending to it\n";
        return false;
    }
    // A writer that died mid-line leaves no final newline; start on a fresh line so that the
    // truncated record stays the only casualty. (Two writers may both add one: an empty line is
    // harmless.)
    struct stat st;
    if (empty) {
        line = log_header_line() + line;  // (two first writers may both add one: a header is skipped anywhere)
    } else if (fstat(fd, &st) == 0 && st.st_size > 0) {
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

std::string LogContents::summary(int ignored) const {
    std::vector<std::string> parts;
    auto plural = [](int n, const char *one, const char *many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    if (foreign) return "not a Diet tuning log (" + foreign_why + "): not read, never appended to";
    if (ignored > 0) parts.push_back(plural(ignored, "record", "records") + " of other pipelines or targets ignored");
    if (skipped > 0) {
        parts.push_back(plural(skipped, "corrupt or truncated line", "corrupt or truncated lines") + " skipped (first: " +
                        first_skipped + ")");
    }
    for (const auto &[format, n] : other_format) {
        parts.push_back(plural(n, "record", "records") + " of log format " + std::to_string(format) +
                        " skipped (this version reads format " + std::to_string(kLogFormat) + ")");
    }
    std::string s;
    for (const std::string &p : parts) s += (s.empty() ? "" : ", ") + p;
    return s;
}

namespace {
// One parsed line: a record or dispatch decision of this log format is added to `c`, one of another
// format counted in c->other_format; anything else is Skipped, with *why. A line without "format"
// is of format 1 (dispatch decisions had none before).
enum class LineUse { Used, OtherFormat, Skipped };
LineUse use_line(const nlohmann::json &j, LineKind kind, LogContents *c, std::string *why) {
    if (kind == LineKind::Other) {
        *why = j.is_discarded() ? "not valid JSON (truncated or corrupt)" : "a JSON value that is not a record";
        return LineUse::Skipped;
    }
    auto f = j.find("format");
    if (f != j.end() && !f->is_number_integer()) {
        *why = "field \"format\" has the wrong type";
        return LineUse::Skipped;
    }
    if (f != j.end() && f->get<int>() != kLogFormat) {
        c->other_format[f->get<int>()]++;
        return LineUse::OtherFormat;
    }
    if (kind == LineKind::Record) {
        TuningRecord r;
        if (!record_from_json(j, &r, why)) return LineUse::Skipped;
        c->records.push_back(std::move(r));
        return LineUse::Used;
    }
    try {
        DispatchRecord d;
        d.pipeline = j.at("pipeline").get<std::string>();
        d.target = j.at("target").get<std::string>();
        d.stage = j.at("stage").get<int>();
        d.family = j.at("family").get<std::string>();
        d.dispatch = j.at("dispatch");
        d.tool_version = j.at("tool_version").get<std::string>();
        d.unix_time = j.value("unix_time", (int64_t)0);
        c->dispatches.push_back(std::move(d));
        return LineUse::Used;
    } catch (const nlohmann::json::exception &e) {
        *why = std::string("malformed dispatch decision: ") + e.what();
        return LineUse::Skipped;
    }
}
}  // namespace

LogContents read_log(const std::string &path) {
    LogContents c;
    std::ifstream in(path, std::ios::binary);
    if (!in) return c;
    if (!is_diet_log(path, &c.foreign_why)) {
        c.foreign = true;
        return c;
    }
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        number++;
        if (blank(line)) continue;
        nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        const LineKind kind = kind_of(j);
        if (kind == LineKind::Header) continue;
        std::string why;
        if (use_line(j, kind, &c, &why) == LineUse::Skipped && c.skipped++ == 0) {
            c.first_skipped = "line " + std::to_string(number) + ": " + why;
        }
    }
    return c;
}

}  // namespace diet
