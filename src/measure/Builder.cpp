#include "measure/Builder.h"
#include "common/Errors.h"
#include "measure/Timing.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

extern char **environ;

namespace diet {

using namespace Halide;

namespace {

bool make_dirs(const std::string &path) {
    std::string partial;
    std::istringstream in(path);
    std::string part;
    if (!path.empty() && path[0] == '/') partial = "/";
    while (std::getline(in, part, '/')) {
        if (part.empty()) continue;
        partial += part + "/";
        if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
    return true;
}

// A directory for this process's runtime objects, removed at exit.
std::string process_cache_dir() {
    static std::string dir;
    static std::once_flag once;
    std::call_once(once, []() {
        const char *tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/diet-runtime-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back(0);
        if (mkdtemp(buf.data())) dir = buf.data();
        std::atexit([]() {
            // Only the files this process wrote: runtime-*.o.
            for (int i = 0; i < 64; i++) unlink((dir + "/runtime-" + std::to_string(i) + ".o").c_str());
            rmdir(dir.c_str());
        });
    });
    return dir;
}

// Runs argv, its output into `log`; returns the exit status (-1 when it could not start).
int run_command(const std::vector<std::string> &args, const std::string &log) {
    std::vector<char *> argv;
    for (const std::string &a : args) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string read_text(const std::string &path, size_t max = 4000) {
    std::ifstream in(path);
    std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (s.size() > max) s = s.substr(0, max) + "...";
    return s;
}

}  // namespace

Target reference_target(const Target &t) {
    Target r = t;
    for (Target::Feature f : {Target::CUDA, Target::OpenCL, Target::Metal, Target::D3D12Compute, Target::OpenGLCompute,
                              Target::CUDACapability30, Target::CUDACapability32, Target::CUDACapability35,
                              Target::CUDACapability50, Target::CUDACapability61, Target::CUDACapability70,
                              Target::CUDACapability75, Target::CUDACapability80, Target::CUDACapability86}) {
        r = r.without_feature(f);
    }
    return r;
}

std::string runtime_object(const Target &t) {
    static std::mutex mutex;
    static std::map<std::string, std::string> built;
    Target rt = t.without_feature(Target::NoRuntime);
    std::string key = rt.to_string();
    std::lock_guard<std::mutex> lock(mutex);  // also makes concurrent builds wait for the one compile
    auto it = built.find(key);
    if (it != built.end()) return it->second;
    std::string path = process_cache_dir() + "/runtime-" + std::to_string(built.size()) + ".o";
    compile_standalone_runtime(path, rt);
    built[key] = path;
    return path;
}

Builder::Builder(std::string dir, int jobs) : dir_(std::move(dir)), jobs_(jobs) {
    if (jobs_ <= 0) jobs_ = std::max(1u, std::thread::hardware_concurrency());
    user_assert(make_dirs(dir_)) << "Diet: cannot create the build directory " << dir_ << ": " << std::strerror(errno)
                                 << "\n";
}

BuildResult Builder::build_one(const BuildRequest &req) const {
    BuildResult r;
    r.symbol = req.symbol;
    double t0 = now_seconds();
    std::string object = dir_ + "/" + req.symbol + ".o", library = dir_ + "/" + req.symbol + ".so";
    std::string runtime;
    try {
        runtime = runtime_object(req.target);
        Pipeline p = req.pipeline;
        p.compile_to_object(object, p.infer_arguments(), req.symbol, req.target.with_feature(Target::NoRuntime));
    } catch (const std::exception &e) {
        // Halide's CompileError / InternalError: a schedule Halide rejects is a failed candidate.
        r.error = std::string("compile failed: ") + e.what();
        unlink(object.c_str());
        r.seconds = now_seconds() - t0;
        return r;
    }
    const char *cc = std::getenv("CC");
    std::string log = dir_ + "/" + req.symbol + ".link.log";
    int rc = run_command({cc && *cc ? cc : "cc", "-shared", "-o", library, object, runtime, "-Wl,-Bsymbolic",
                          "-lpthread", "-ldl", "-lm"},
                         log);
    if (rc != 0) {
        r.error = "link failed (" + std::string(rc < 0 ? "cannot run the C compiler" : "status " + std::to_string(rc)) +
                  "): " + read_text(log);
    } else {
        r.library = library;
    }
    unlink(log.c_str());
    unlink(object.c_str());
    r.seconds = now_seconds() - t0;
    return r;
}

std::vector<BuildResult> Builder::build(const std::vector<BuildRequest> &requests) const {
    std::vector<BuildResult> results(requests.size());
    if (requests.empty()) return results;
    // Compile the runtimes first, outside the workers, so that a failure there is reported once.
    for (const BuildRequest &r : requests) {
        try {
            runtime_object(r.target);
        } catch (const std::exception &) {
            // Reported per request by build_one.
        }
    }
    std::atomic<size_t> next{0};
    auto worker = [&]() {
        for (size_t i; (i = next++) < requests.size();) results[i] = build_one(requests[i]);
    };
    int n = std::min<int>(jobs_, (int)requests.size());
    std::vector<std::thread> threads;
    for (int i = 1; i < n; i++) threads.emplace_back(worker);
    worker();
    for (std::thread &t : threads) t.join();
    return results;
}

}  // namespace diet
