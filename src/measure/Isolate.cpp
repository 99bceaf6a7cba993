#include "measure/Isolate.h"
#include "measure/Timing.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>

namespace diet {

void ChildReport::set_message(const std::string &m) {
    std::snprintf(message, sizeof(message), "%s", m.c_str());
}

uint64_t default_memory_limit() {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return 0;
    return (uint64_t)pages * (uint64_t)page / 4 * 3;
}

namespace {

uint64_t current_address_space() {
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;
    return pages * (uint64_t)sysconf(_SC_PAGE_SIZE);
}

bool write_all(int fd, const void *data, size_t n) {
    const char *p = (const char *)data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

[[noreturn]] void child_main(int fd, const std::function<ChildReport()> &body, const IsolationLimits &limits) {
    // The tuner's own fatal-signal handlers (a test framework's, LLVM's) must not run in the child:
    // a crashing candidate ends the child with the signal, which the parent records.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS}) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    // A crash must not leave a core file per candidate behind.
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    if (limits.memory_bytes > 0) {
        // The child starts as a copy of the parent (libHalide and LLVM mapped too), so the limit is
        // what it may add on top. Allocations past it fail, which the Halide runtime reports as
        // an out-of-memory error, instead of the machine swapping or the OOM killer picking a victim.
        uint64_t limit = current_address_space() + limits.memory_bytes;
        rlimit as{limit, limit};
        setrlimit(RLIMIT_AS, &as);
    }
    ChildReport r;
    try {
        r = body();
    } catch (const std::bad_alloc &) {
        r.status = -1;
        r.set_message("out of memory (the measurement's memory limit was reached)");
    } catch (const std::exception &e) {
        r.status = -1;
        r.set_message(std::string("exception: ") + e.what());
    }
    bool ok = write_all(fd, &r, sizeof(r));
    // _exit, not exit: the child is a copy of the tuner, whose static destructors and atexit
    // handlers (libHalide, LLVM, a test framework) must not run twice.
    _exit(ok ? 0 : 3);
}

std::string describe_signal(int sig) {
    const char *name = strsignal(sig);
    return "signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
}

}  // namespace

IsolatedResult run_isolated(const std::function<ChildReport()> &body, const IsolationLimits &limits) {
    IsolatedResult result;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        result.failure = std::string("cannot create a pipe: ") + std::strerror(errno);
        return result;
    }
    // Buffered output would be written twice, by the parent and by the child.
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        result.failure = std::string("cannot fork: ") + std::strerror(errno);
        close(fds[0]);
        close(fds[1]);
        return result;
    }
    if (pid == 0) {
        close(fds[0]);
        // Its own process group, so that the kill below also reaches anything it started.
        setpgid(0, 0);
        // A tuner that is killed (SIGINT, SIGTERM, SIGKILL) takes the measurement with it: the child
        // is in its own process group, so a terminal's ^C does not reach it, and a hung candidate
        // would otherwise run on forever. (The signal follows the forking thread, which waits for
        // the child below.) If the tuner died before prctl, the parent is already someone else.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(4);
        child_main(fds[1], body, limits);
    }
    setpgid(pid, pid);  // also here: whichever of the two runs first, the group exists before a kill
    close(fds[1]);

    char *dst = (char *)&result.report;
    size_t got = 0;
    bool timed_out = false;
    double deadline = now_seconds() + limits.timeout_seconds;
    while (got < sizeof(ChildReport)) {
        double left = deadline - now_seconds();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        int n = poll(&p, 1, (int)std::ceil(std::min(left, 3600.0) * 1000));
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) continue;  // re-check the deadline
        ssize_t r = read(fds[0], dst + got, sizeof(ChildReport) - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;  // EOF: the child ended without (finishing) its report
        got += (size_t)r;
    }
    close(fds[0]);
    if (timed_out) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (got == sizeof(ChildReport)) {
        result.reported = true;
        result.report.message[sizeof(result.report.message) - 1] = 0;
        return result;
    }
    char limit[64];
    std::snprintf(limit, sizeof(limit), "%g", limits.timeout_seconds);
    if (timed_out) {
        result.failure = std::string("timed out: no result within the limit of ") + limit +
                         " s (HL_DIET_TIMEOUT, or diet_runner --timeout); killed";
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        result.failure = "crashed: " + describe_signal(sig);
        if (sig == SIGKILL) result.failure += ", probably by the kernel's out-of-memory killer";
    } else if (WIFEXITED(status)) {
        result.failure = "exited with status " + std::to_string(WEXITSTATUS(status)) + " before reporting";
    } else {
        result.failure = "ended without a report";
    }
    return result;
}

}  // namespace diet
