// diet_log_check <log>: what Diet's own reader makes of a tuning log, for the shell tests:
//   records <n> dispatches <n> skipped <n> other_format <n> foreign <0|1> duplicates <n>
// (skipped: lines that do not parse; duplicates: (pipeline, target, shape, kernel) measured twice).
#include "measure/TuningLog.h"

#include <cstdio>
#include <set>
#include <string>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <tuning log>\n", argv[0]);
        return 2;
    }
    diet::LogContents c = diet::read_log(argv[1]);
    std::set<std::string> seen;
    int duplicates = 0, other_format = 0;
    for (const auto &r : c.records) {
        std::string key = r.pipeline + "|" + r.target + "|" + r.micro_kernel;
        for (const auto &[v, x] : r.shape) key += "|" + v + "=" + std::to_string(x);
        duplicates += !seen.insert(key).second;
    }
    for (const auto &[f, n] : c.other_format) other_format += n;
    std::printf("records %zu dispatches %zu skipped %d other_format %d foreign %d duplicates %d\n", c.records.size(),
                c.dispatches.size(), c.skipped, other_format, c.foreign ? 1 : 0, duplicates);
    if (c.skipped) std::printf("first skipped: %s\n", c.first_skipped.c_str());
    return 0;
}
