// Runs one measurement in a forked child process, so that whatever the candidate does (crash,
// hang, exhaust memory, corrupt the heap, fail in the Halide runtime) ends with the child and the
// tuner records it and goes on. The child reports through a pipe; the parent waits for the report
// at most `timeout_seconds`, then kills the child's whole process group. Runtime-only.
//
// fork() copies only the calling thread. The child therefore does only what needs no lock another
// thread may have held at the fork: it loads a candidate library (whose Halide runtime, thread
// pool included, starts fresh in the child), allocates, runs, writes the pipe and _exits. Call it
// with no build running (Builder's threads are joined before anything is measured).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace diet {

// What a child sends back: plain data of fixed size, written with one write(2).
struct ChildReport {
    int32_t status = 0;  // 0: ran to the end; else a Halide error code or -1
    int32_t repeats = 0;
    double median_seconds = 0;
    double max_rel_error = 0;  // against the reference; 0 when nothing was compared
    double tolerance = 0;      // the largest max_rel_error allowed for the worst output's type
    char message[2048] = {0};  // an error, or where the outputs differ most

    void set_message(const std::string &m);
};

struct IsolationLimits {
    double timeout_seconds = 10;  // wall clock of the whole child: load, warm-up, timing, check
    uint64_t memory_bytes = 0;    // RLIMIT_AS added to the parent's current address space; 0: none
};

struct IsolatedResult {
    bool reported = false;  // the child sent a whole report
    ChildReport report;
    std::string failure;  // when not reported: "crashed: signal 11 (Segmentation fault)", "timed out ..."
};

IsolatedResult run_isolated(const std::function<ChildReport()> &body, const IsolationLimits &limits);

// A generous default for IsolationLimits::memory_bytes: three quarters of physical memory.
uint64_t default_memory_limit();

}  // namespace diet
