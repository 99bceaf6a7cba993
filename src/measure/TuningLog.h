// The tuning log: one JSON object per line (HL_DIET_LOG), one line per measurement. Appends are
// atomic per record (one write(2) of the whole line to a file opened O_APPEND), the file is never
// rewritten, and a reader skips a truncated or corrupt line and keeps every other record.
// Runtime-only (nlohmann::json and POSIX), so the standalone runner's results can become records
// anywhere.
//
// Files and faults (issue 7):
//  - A new log starts with a header line, {"kind":"diet-tuning-log","format":1,...}, written in the
//    same write(2) as its first record.
//  - A file that is not a Diet log is never appended to: when a non-empty file's first non-blank
//    line is neither that header nor a Diet record or dispatch decision (a log written before the
//    header existed), append_record() / append_dispatch() refuse with a warning and return false,
//    read_log() returns no record and sets `foreign`, and the tuner tunes without logging.
//  - Lines that are not JSON or not records (a writer killed mid-line, garbage) are counted in
//    `skipped`; records of another log format ("format" other than kLogFormat; a line without the
//    field is format 1, the first one) are counted in `other_format` and not used. Records of
//    other pipelines or targets are kept by read_log() and ignored by the tuner, which prints one
//    summary line of all of these (LogContents::summary).
//  - Killing a writer (SIGINT, SIGTERM, SIGKILL) loses at most the line being written, which the
//    next append starts a fresh line after; every complete record stays usable for a resume.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace diet {

// Version of the tool that wrote a record, and of the record format.
constexpr const char *kToolVersion = "diet 0.1.0";
constexpr int kLogFormat = 1;

struct TuningRecord {
    std::string pipeline;                  // fingerprint of the algorithm (Fingerprint.h)
    std::string target;                    // Target::to_string() of the measured code
    std::map<std::string, int64_t> shape;  // shape variable -> value (a diet::Shape)
    std::string micro_kernel;              // Candidate::describe(), or the label of a measured variant
    std::string features_digest;           // digest of the candidate's features; "" until src/features provides them
    double median_seconds = 0;             // 0 when error is set
    int repeats = 0;                       // timed runs behind the median
    double max_rel_error = 0;              // against the reference
    std::string mode;                      // "cpu", "cuda-warm", "cuda-cold"
    std::string error;                     // "" when correct and timed
    std::string tool_version = kToolVersion;
    int64_t unix_time = 0;  // when it was measured

    bool ok() const { return error.empty(); }
};

nlohmann::json record_to_json(const TuningRecord &r);
// false (and *why) when `j` is not a record: a missing field or one of the wrong type.
bool record_from_json(const nlohmann::json &j, TuningRecord *r, std::string *why);

// Appends one record. Returns false (and warns on stderr) when the log cannot be written: a
// tuning log that fails does not stop the tuning.
bool append_record(const std::string &path, const TuningRecord &r);

// The decision a tuning run made from its measurements: one stage's shape dispatch (a JSON list of
// leaves, dispatch/Dispatch.h), keyed by pipeline, target, stage and the shape family it covers.
// A rerun with no trials applies the latest matching one as it is ("apply history best").
struct DispatchRecord {
    std::string pipeline, target;
    int stage = 0;            // index of the matmul-like stage in FunctionDAG::matmuls() order
    std::string family;       // the shape family and training shapes, as the run saw them
    nlohmann::json dispatch;  // dispatch_to_json()
    std::string tool_version = kToolVersion;
    int64_t unix_time = 0;
};

// Appended like a record, as a line with "kind": "dispatch".
bool append_dispatch(const std::string &path, const DispatchRecord &d);

struct LogContents {
    std::vector<TuningRecord> records;
    std::vector<DispatchRecord> dispatches;  // in file order (the last of a key is the latest)
    int skipped = 0;                         // corrupt or truncated lines
    std::string first_skipped;               // "line N: why" of the first of them
    std::map<int, int> other_format;         // log format -> records and decisions of it, not used
    bool foreign = false;                    // not a Diet log at all: nothing read, never appended to
    std::string foreign_why;                 // what its first line is
    // One line for the user: "<n> record(s) of other pipelines or targets ignored, <n> corrupt
    // line(s) skipped (first: line 7: not valid JSON), <n> record(s) of log format 0 skipped";
    // `ignored` is the caller's count of records of other pipelines or targets. "" when all is clean.
    std::string summary(int ignored = 0) const;
};
// A missing file is an empty log. Prints nothing: the caller reports summary().
LogContents read_log(const std::string &path);

// The first line of a Diet log written by this version.
std::string log_header_line();
// Whether `path` may be appended to: missing, empty (or blank), or a Diet log. *why says what the
// first line of a foreign file is.
bool is_diet_log(const std::string &path, std::string *why = nullptr);

}  // namespace diet
