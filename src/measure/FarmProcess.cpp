#include "measure/FarmProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace diet {

namespace {

// argv as the C array execv wants; built before fork, since the child of a threaded process may
// only call async-signal-safe functions (no allocation) until it execs.
struct CArgv {
    std::vector<std::string> strings;
    std::vector<char *> ptrs;
    explicit CArgv(std::vector<std::string> a) : strings(std::move(a)) {
        for (std::string &s : strings) ptrs.push_back(s.data());
        ptrs.push_back(nullptr);
    }
};

}  // namespace

std::string find_program(const std::string &name) {
    if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
    const char *env = std::getenv("PATH");
    std::string path = std::string(env ? env : "/usr/bin:/bin") + ":/usr/sbin:/usr/local/bin";
    std::istringstream in(path);
    std::string dir;
    while (std::getline(in, dir, ':')) {
        if (dir.empty()) continue;
        std::string full = dir + "/" + name;
        struct stat st;
        if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0) return full;
    }
    return "";
}

CommandResult run_command(const std::vector<std::string> &argv, double timeout_seconds) {
    CommandResult r;
    std::string exe = find_program(argv.at(0));
    if (exe.empty()) {
        r.output = argv[0] + ": not found in PATH";
        return r;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        r.output = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    CArgv args(argv);
    pid_t pid = fork();
    if (pid < 0) {
        r.output = std::string("fork: ") + std::strerror(errno);
        close(fds[0]);
        close(fds[1]);
        return r;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        execv(exe.c_str(), args.ptrs.data());
        _exit(127);
    }
    close(fds[1]);
    auto start = std::chrono::steady_clock::now();
    bool killed = false;
    char buf[4096];
    for (;;) {
        struct pollfd p = {fds[0], POLLIN, 0};
        int ready = poll(&p, 1, 200);
        if (ready > 0) {
            ssize_t n = read(fds[0], buf, sizeof buf);
            if (n > 0) {
                r.output.append(buf, (size_t)n);
                continue;
            }
            if (n == 0) break;
            if (errno != EINTR) break;
        }
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!killed && timeout_seconds > 0 && elapsed > timeout_seconds) {
            kill(pid, SIGKILL);
            killed = true;
            r.output += "\n" + argv[0] + ": killed after " + std::to_string((int)timeout_seconds) + " s";
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.status = WIFEXITED(status) && !killed ? WEXITSTATUS(status) : -1;
    return r;
}

CancelGuard::CancelGuard(const std::vector<std::string> &job_ids) {
    std::string scancel = find_program("scancel");
    if (scancel.empty() || job_ids.empty()) {
        std::cerr << "[diet] farm: warning: no scancel in PATH: jobs of a killed tuner will not be cancelled\n";
        return;
    }
    std::vector<std::string> argv = {scancel};
    argv.insert(argv.end(), job_ids.begin(), job_ids.end());
    CArgv args(argv);
    const pid_t parent = getpid();
    sigset_t term, old;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    // Blocked before fork so that a SIGTERM arriving between fork and sigwait is not lost.
    pthread_sigmask(SIG_BLOCK, &term, &old);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        // Ctrl-C reaches the whole foreground process group: the guard must outlive the tuner
        // to cancel its jobs, not die with it.
        signal(SIGINT, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        signal(SIGQUIT, SIG_IGN);
        // Nothing of the parent's stdin; its stderr stays, for scancel's messages.
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        // A parent that died before prctl took effect would never send the signal.
        if (getppid() != parent) execv(args.ptrs[0], args.ptrs.data());
        int sig = 0;
        sigwait(&term, &sig);
        execv(args.ptrs[0], args.ptrs.data());
        _exit(127);
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    pid_ = pid > 0 ? pid : -1;
}

void CancelGuard::dismiss() {
    if (pid_ <= 0) return;
    // SIGKILL, not SIGTERM: the guard treats SIGTERM as "the tuner died, cancel the jobs".
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
}

bool copy_executable(const std::string &from, const std::string &to, std::string *why) {
    std::ifstream in(from, std::ios::binary);
    if (!in) {
        *why = "cannot read " + from;
        return false;
    }
    std::string tmp = to + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(tmp, std::ios::binary);
        out << in.rdbuf();
        if (!out.flush()) {
            *why = "cannot write " + tmp;
            return false;
        }
    }
    if (chmod(tmp.c_str(), 0755) != 0 || std::rename(tmp.c_str(), to.c_str()) != 0) {
        *why = "cannot install " + to + ": " + std::strerror(errno);
        unlink(tmp.c_str());
        return false;
    }
    return true;
}

}  // namespace diet
