#include "measure/Runner.h"
#include "measure/CudaDriver.h"
#include "measure/Library.h"

#include "HalideRuntimeCuda.h"

#include <cmath>
#include <mutex>
#include <sstream>

namespace diet {

ShapeBench::ShapeBench(std::vector<ArgSpec> specs, uint64_t seed) : specs_(std::move(specs)) {
    for (const ArgSpec &s : specs_) {
        inputs_.emplace_back();
        if (s.kind == ArgKind::Input) {
            // Private memory: every child gets its own copy-on-write view of the same values.
            inputs_.back().reset(new ArgBuffer(s, false));
            fill_random(*inputs_.back(), seed);
        }
    }
}

ShapeBench::~ShapeBench() = default;

int64_t ShapeBench::bytes() const {
    int64_t n = 0;
    for (const ArgSpec &s : specs_) {
        if (s.is_buffer()) n += s.bytes();
    }
    return n;
}

namespace {

std::string runtime_error_text(int code) {
    std::string msg = PipelineLibrary::take_errors();
    return "Halide runtime error " + std::to_string(code) + (msg.empty() ? "" : ": " + msg);
}

// The CUDA context every measured library runs in (see CudaDriver): set in the child only.
void *g_cuda_context = nullptr;
int use_our_context(void *, void **ctx, bool) {
    *ctx = g_cuda_context;
    return g_cuda_context ? 0 : -1;
}
int release_nothing(void *) {
    return 0;
}

struct CallBuffers {
    std::vector<std::unique_ptr<ArgBuffer>> owned;
    std::vector<ArgBuffer *> all;  // per spec: inputs, outputs; null for scalars
    std::vector<ArgBuffer *> outs;
};

CallBuffers make_args(const std::vector<ArgSpec> &specs, const std::vector<std::unique_ptr<ArgBuffer>> &inputs) {
    CallBuffers a;
    for (size_t i = 0; i < specs.size(); i++) {
        ArgBuffer *b = nullptr;
        if (specs[i].kind == ArgKind::Input) {
            b = inputs[i].get();
        } else if (specs[i].kind == ArgKind::Output) {
            a.owned.emplace_back(new ArgBuffer(specs[i], false));
            b = a.owned.back().get();
            a.outs.push_back(b);
        }
        a.all.push_back(b);
    }
    return a;
}

// Compares every output with the reference's; the report holds the worst relative to its tolerance.
void check_outputs(const std::vector<ArgBuffer *> &outs, const std::vector<const ArgBuffer *> &refs, ChildReport *r) {
    double worst_ratio = -1;
    for (size_t i = 0; i < outs.size(); i++) {
        Comparison c = compare(*outs[i], *refs[i]);
        double tol = tolerance_for(refs[i]->spec().type);
        double ratio = c.max_rel_error / std::max(tol, 1e-300);
        if (ratio > worst_ratio) {
            worst_ratio = ratio;
            r->max_rel_error = c.max_rel_error;
            r->tolerance = tol;
            r->set_message(c.worst);
        }
    }
}

// The body of a measurement child.
ChildReport measure_in_child(const LibraryRef &lib_ref, const std::vector<ArgSpec> &specs,
                             const std::vector<std::unique_ptr<ArgBuffer>> &inputs,
                             const std::vector<const ArgBuffer *> &refs, const RunnerOptions &o) {
    ChildReport r;
    r.status = -1;
    std::string err;
    std::unique_ptr<PipelineLibrary> lib = PipelineLibrary::open(lib_ref.path, lib_ref.symbol, &err);
    if (!lib) {
        r.set_message(err);
        return r;
    }
    std::unique_ptr<CudaDriver> cuda;
    if (lib_ref.cuda) {
        cuda.reset(new CudaDriver);
        if (!cuda->usable()) {
            r.set_message(cuda->why());
            return r;
        }
        g_cuda_context = cuda->context();
        auto set_acquire = (halide_cuda_acquire_context_t(*)(halide_cuda_acquire_context_t))lib->symbol(
            "halide_set_cuda_acquire_context");
        auto set_release = (halide_cuda_release_context_t(*)(halide_cuda_release_context_t))lib->symbol(
            "halide_set_cuda_release_context");
        if (!set_acquire || !set_release) {
            r.set_message(lib_ref.path + " was not compiled with Halide's CUDA runtime");
            return r;
        }
        set_acquire(use_our_context);
        set_release(release_nothing);
    }
    CallBuffers args = make_args(specs, inputs);
    BoundCall call;
    err = bind_arguments(lib->metadata(), specs, args.all, &call);
    if (!err.empty()) {
        r.set_message(err);
        return r;
    }
    auto sync_outputs = [&]() {
        for (ArgBuffer *b : args.outs) {
            halide_buffer_t *raw = b->raw();
            if (raw->device_interface) {
                if (int e = raw->device_interface->device_sync(nullptr, raw)) return e;
            }
        }
        return 0;
    };

    // 1. Correctness, on poisoned outputs so that an element left unwritten cannot pass. On the
    //    GPU the poison must be in device memory: run once (allocating it), then copy the poison
    //    to the device.
    if (lib_ref.cuda) {
        if (int e = lib->call(call.argv.data())) {
            r.status = e;
            r.set_message(runtime_error_text(e));
            return r;
        }
    }
    for (ArgBuffer *b : args.outs) {
        halide_buffer_t *raw = b->raw();
        poison(*b);
        if (raw->device_interface) {
            raw->set_device_dirty(false);
            raw->set_host_dirty(true);
            if (int e = raw->device_interface->copy_to_device(nullptr, raw, raw->device_interface)) {
                r.status = e;
                r.set_message(runtime_error_text(e));
                return r;
            }
        }
    }
    int e = lib->call(call.argv.data());
    if (e == 0) e = sync_outputs();
    for (ArgBuffer *b : args.outs) {
        halide_buffer_t *raw = b->raw();
        if (e == 0 && raw->device_interface && raw->device_dirty())
            e = raw->device_interface->copy_to_host(nullptr, raw);
    }
    if (e) {
        r.status = e;
        r.set_message(runtime_error_text(e));
        return r;
    }
    check_outputs(args.outs, refs, &r);
    if (r.max_rel_error > r.tolerance) {
        r.status = 0;  // ran, but wrong: the parent records it as such, without timing it
        return r;
    }

    // 2. Timing.
    std::string driver_error;
    TimingResult t = time_runs(o.timing, [&](double *seconds) {
        if (cuda) {
            std::string d =
                o.cold_l2 ? cuda->evict_l2(std::max<int64_t>(4 * cuda->l2_bytes(), 256ll << 20)) : cuda->synchronize();
            if (!d.empty()) {
                driver_error = d;
                return -1;
            }
        }
        double t0 = now_seconds();
        int e = lib->call(call.argv.data());
        if (e == 0) e = sync_outputs();  // kernels are asynchronous: the region ends when they do
        *seconds = now_seconds() - t0;
        return e;
    });
    if (t.error) {
        r.status = t.error;
        r.set_message(driver_error.empty() ? runtime_error_text(t.error) : driver_error);
        return r;
    }
    r.status = 0;
    r.median_seconds = t.median_seconds;
    r.repeats = t.repeats;
    return r;
}

std::string format_double(double v) {
    std::ostringstream o;
    o << v;
    return o.str();
}

}  // namespace

std::string ShapeBench::run_reference(const LibraryRef &ref, const RunnerOptions &o) {
    reference_.clear();
    std::vector<std::unique_ptr<ArgBuffer>> outs;
    std::vector<ArgBuffer *> all;
    for (size_t i = 0; i < specs_.size(); i++) {
        outs.emplace_back();
        if (specs_[i].kind == ArgKind::Output) outs.back().reset(new ArgBuffer(specs_[i], true));
        all.push_back(specs_[i].kind == ArgKind::Output ? outs.back().get() : inputs_[i].get());
    }
    IsolationLimits limits = o.limits;
    limits.timeout_seconds *= o.reference_timeout_factor;
    if (ref.cuda) limits.memory_bytes = 0;
    IsolatedResult res = run_isolated(
        [&]() {
            ChildReport r;
            r.status = -1;
            std::string err;
            std::unique_ptr<PipelineLibrary> lib = PipelineLibrary::open(ref.path, ref.symbol, &err);
            if (!lib) {
                r.set_message(err);
                return r;
            }
            BoundCall call;
            err = bind_arguments(lib->metadata(), specs_, all, &call);
            if (!err.empty()) {
                r.set_message(err);
                return r;
            }
            r.status = lib->call(call.argv.data());
            if (r.status) r.set_message(runtime_error_text(r.status));
            return r;
        },
        limits);
    if (!res.reported) return "the reference " + res.failure;
    if (res.report.status != 0) return std::string("the reference failed: ") + res.report.message;
    reference_ = std::move(outs);
    return "";
}

Outcome ShapeBench::measure(const LibraryRef &lib, const RunnerOptions &o) const {
    Outcome out;
    out.mode = !lib.cuda ? "cpu" : o.cold_l2 ? "cuda-cold" : "cuda-warm";
    if (!has_reference()) {
        out.error = "no reference output for this shape";
        return out;
    }
    std::vector<const ArgBuffer *> refs;
    for (const auto &r : reference_) {
        if (r) refs.push_back(r.get());
    }
    IsolationLimits limits = o.limits;
    // The CUDA driver reserves address space far beyond what it uses (unified addressing), so
    // an address-space limit would break it: GPU children run without one.
    if (lib.cuda) limits.memory_bytes = 0;
    IsolatedResult res = run_isolated([&]() { return measure_in_child(lib, specs_, inputs_, refs, o); }, limits);
    if (!res.reported) {
        out.error = res.failure;
        return out;
    }
    const ChildReport &r = res.report;
    out.max_rel_error = r.max_rel_error;
    if (r.status != 0) {
        out.error = r.message;
    } else if (r.max_rel_error > r.tolerance) {
        out.error = "wrong result: max relative error " + format_double(r.max_rel_error) + " > tolerance " +
                    format_double(r.tolerance) + " (" + r.message + ")";
    } else {
        out.median_seconds = r.median_seconds;
        out.repeats = r.repeats;
    }
    return out;
}

std::string cuda_unusable_reason() {
    static std::once_flag once;
    static std::string reason;
    std::call_once(once, []() {
        IsolatedResult res = run_isolated(
            []() {
                ChildReport r;
                CudaDriver d;
                r.status = d.usable() ? 0 : -1;
                r.set_message(d.usable() ? d.device_name() : d.why());
                return r;
            },
            IsolationLimits{60.0, 0});
        if (!res.reported) {
            reason = "probing the CUDA driver " + res.failure;
        } else if (res.report.status != 0) {
            reason = res.report.message;
        }
    });
    return reason;
}

std::string cuda_missing_message(const std::string &target, const std::string &reason) {
    return "Diet: the target " + target + " asks for a CUDA GPU, but none can be used on this machine: " + reason +
           ". Measure on a machine with a GPU (batch mode: write the batch here, run diet_runner there, import its "
           "results), or use a target without the cuda feature.";
}

}  // namespace diet
