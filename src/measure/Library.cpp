#include "measure/Library.h"

#include <dlfcn.h>

#include <cstring>
#include <mutex>

namespace diet {

namespace {

// The handler is a plain function pointer (no closure), so the messages go to a process-wide
// string. A measurement runs in its own child process, so one library is called at a time.
std::mutex error_mutex;
std::string error_text;

void collect_error(void *, const char *msg) {
    std::lock_guard<std::mutex> lock(error_mutex);
    std::string m(msg ? msg : "");
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    if (error_text.size() < 4096) error_text += (error_text.empty() ? "" : "; ") + m;
}

}  // namespace

std::unique_ptr<PipelineLibrary> PipelineLibrary::open(const std::string &path, const std::string &symbol,
                                                       std::string *error) {
    std::unique_ptr<PipelineLibrary> lib(new PipelineLibrary);
    // RTLD_LOCAL keeps this library's Halide runtime out of the global namespace; the library is
    // linked -Bsymbolic (Builder), so its own calls into the runtime bind to its own copy too.
    lib->handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle_) {
        const char *e = dlerror();
        *error = "cannot load " + path + ": " + (e ? e : "unknown dlopen error");
        return nullptr;
    }
    lib->argv_fn_ = (int (*)(void **))dlsym(lib->handle_, (symbol + "_argv").c_str());
    auto md_fn = (const halide_filter_metadata_t *(*)())dlsym(lib->handle_, (symbol + "_metadata").c_str());
    if (!lib->argv_fn_ || !md_fn) {
        *error = path + " has no " + symbol + "_argv / " + symbol + "_metadata entry point";
        return nullptr;
    }
    lib->metadata_ = md_fn();
    auto set_handler =
        (halide_error_handler_t(*)(halide_error_handler_t))dlsym(lib->handle_, "halide_set_error_handler");
    if (set_handler) set_handler(collect_error);
    return lib;
}

PipelineLibrary::~PipelineLibrary() {
    // Never dlclose: the library's runtime may still own worker threads (its thread pool), and
    // unmapping their code under them crashes. Libraries are loaded in short-lived children.
}

void *PipelineLibrary::symbol(const std::string &name) const {
    return dlsym(handle_, name.c_str());
}

std::string PipelineLibrary::take_errors() {
    std::lock_guard<std::mutex> lock(error_mutex);
    std::string e;
    e.swap(error_text);
    return e;
}

namespace {

bool same_type(halide_type_t a, halide_type_t b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

halide_scalar_value_t scalar_of(halide_type_t t, double v) {
    halide_scalar_value_t s;
    std::memset(&s, 0, sizeof(s));
    if (t.code == halide_type_float && t.bits == 32) {
        s.u.f32 = (float)v;
    } else if (t.code == halide_type_float && t.bits == 64) {
        s.u.f64 = v;
    } else if (t.code == halide_type_int) {
        if (t.bits == 8) s.u.i8 = (int8_t)v;
        if (t.bits == 16) s.u.i16 = (int16_t)v;
        if (t.bits == 32) s.u.i32 = (int32_t)v;
        if (t.bits == 64) s.u.i64 = (int64_t)v;
    } else if (t.code == halide_type_uint) {
        if (t.bits == 1) s.u.b = v != 0;
        if (t.bits == 8) s.u.u8 = (uint8_t)v;
        if (t.bits == 16) s.u.u16 = (uint16_t)v;
        if (t.bits == 32) s.u.u32 = (uint32_t)v;
        if (t.bits == 64) s.u.u64 = (uint64_t)v;
    } else {
        store_element(t, &s, 0, v);  // float16 / bfloat16
    }
    return s;
}

}  // namespace

std::string bind_arguments(const halide_filter_metadata_t *md, const std::vector<ArgSpec> &specs,
                           const std::vector<ArgBuffer *> &buffers, BoundCall *call) {
    call->argv.assign(md->num_arguments, nullptr);
    call->scalars.assign(md->num_arguments, halide_scalar_value_t{});
    std::vector<size_t> output_specs;
    for (size_t i = 0; i < specs.size(); i++) {
        if (specs[i].kind == ArgKind::Output) output_specs.push_back(i);
    }
    size_t next_output = 0;
    for (int a = 0; a < md->num_arguments; a++) {
        const halide_filter_argument_t &arg = md->arguments[a];
        std::string name = arg.name;
        int found = -1;
        if (arg.kind == halide_argument_kind_output_buffer) {
            if (next_output >= output_specs.size())
                return "the library has more outputs than the spec (at " + name + ")";
            found = (int)output_specs[next_output++];
        } else {
            for (size_t i = 0; i < specs.size(); i++) {
                if (specs[i].name == name && specs[i].kind != ArgKind::Output) found = (int)i;
            }
            if (found < 0) return "no value for the library's argument " + name;
        }
        const ArgSpec &s = specs[found];
        if (!same_type(s.type, arg.type)) {
            return "argument " + name + " is " + type_name(arg.type) + " in the library but " + type_name(s.type) +
                   " in the spec";
        }
        if (arg.kind == halide_argument_kind_input_scalar) {
            if (s.kind != ArgKind::Scalar)
                return "argument " + name + " is a scalar in the library, a buffer in the spec";
            call->scalars[a] = scalar_of(s.type, s.value);
            call->argv[a] = &call->scalars[a];
        } else {
            if (!s.is_buffer()) return "argument " + name + " is a buffer in the library, a scalar in the spec";
            if ((int)s.extent.size() != arg.dimensions) {
                return "argument " + name + " has " + std::to_string(arg.dimensions) + " dimensions in the library, " +
                       std::to_string(s.extent.size()) + " in the spec";
            }
            if (!buffers[found]) return "no buffer for argument " + name;
            call->argv[a] = buffers[found]->raw();
        }
    }
    if (next_output != output_specs.size()) return "the spec has more outputs than the library";
    return "";
}

}  // namespace diet
