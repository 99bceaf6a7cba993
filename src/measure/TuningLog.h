// The tuning log: one JSON object per line (HL_DIET_LOG), one line per measurement. Appends are
// atomic per record (one write(2) of the whole line to a file opened O_APPEND), the file is never
// rewritten, and a reader skips a truncated or corrupt line with a warning and keeps every other
// record. Runtime-only (nlohmann::json and POSIX), so the standalone runner's results can become
// records anywhere.
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
    int skipped = 0;  // corrupt or truncated lines, each warned about on stderr
};
// A missing file is an empty log.
LogContents read_log(const std::string &path);

}  // namespace diet
