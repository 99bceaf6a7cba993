// The processes the farm starts: Slurm's client commands (sbatch, squeue, scancel), run without a
// shell and with their output captured, and a guard that cancels submitted jobs when the tuner
// dies, however it dies (SIGKILL included). Runtime-only (POSIX).
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace diet {

struct CommandResult {
    int status = -1;     // exit status; -1 when it could not run or died of a signal
    std::string output;  // stdout and stderr together
};

// Runs argv[0] (looked up in PATH) with the arguments; waits for it. `timeout_seconds` > 0 kills
// it past that (a hung slurmctld must not hang the tuner).
CommandResult run_command(const std::vector<std::string> &argv, double timeout_seconds = 60);

// The full path of `name` in PATH (and /usr/sbin, /usr/local/bin, where Slurm often lives); ""
// when absent.
std::string find_program(const std::string &name);

// A child process that runs `scancel <job ids>` if this process dies before dismiss() (it is told
// by PR_SET_PDEATHSIG, so SIGKILL counts too). Without it a killed tuner would leave its array
// jobs measuring for nobody. dismiss() (or the destructor) ends it quietly.
class CancelGuard {
public:
    explicit CancelGuard(const std::vector<std::string> &job_ids);
    ~CancelGuard() { dismiss(); }
    CancelGuard(const CancelGuard &) = delete;
    CancelGuard &operator=(const CancelGuard &) = delete;
    void dismiss();
    bool active() const { return pid_ > 0; }

private:
    pid_t pid_ = -1;
};

// Copies a file (the runner into a round directory), keeping it executable; false and *why on failure.
bool copy_executable(const std::string &from, const std::string &to, std::string *why);

}  // namespace diet
