#include "measure/HostBuffers.h"

#include <sys/mman.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <sstream>

namespace diet {

ArgBuffer::ArgBuffer(const ArgSpec &spec, bool shared) : spec_(spec) {
    int64_t stride = 1;
    for (size_t d = 0; d < spec.extent.size(); d++) {
        halide_dimension_t dim;
        dim.min = (int32_t)spec.min[d];
        dim.extent = (int32_t)spec.extent[d];
        dim.stride = (int32_t)stride;
        dim.flags = 0;
        dims_.push_back(dim);
        stride *= spec.extent[d];
    }
    // mmap rather than malloc: page-aligned (Halide wants 32 bytes at least), zero-filled, and the
    // only way to get memory a forked child can write for the parent.
    mapped_ = (size_t)std::max<int64_t>(spec.bytes(), 1);
    mem_ = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
    if (mem_ == MAP_FAILED) {
        mem_ = nullptr;
        throw std::bad_alloc();
    }
    buf_.host = (uint8_t *)mem_;
    buf_.type = spec.type;
    buf_.dimensions = (int32_t)dims_.size();
    buf_.dim = dims_.data();
}

ArgBuffer::~ArgBuffer() {
    if (mem_) munmap(mem_, mapped_);
}

namespace {

uint64_t splitmix64(uint64_t &state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t fnv1a(const std::string &s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

}  // namespace

void fill_random(ArgBuffer &b, uint64_t seed) {
    uint64_t state = seed ^ fnv1a(b.spec().name);
    halide_type_t t = b.spec().type;
    int64_t n = b.elements() * t.lanes;
    bool is_float = t.code == halide_type_float || t.code == halide_type_bfloat;
    double int_max = 255;
    if (t.code == halide_type_int && t.bits == 8) int_max = 127;
    if (t.bits == 1) int_max = 1;
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = splitmix64(state);
        double v = is_float ? (double)(r >> 40) / (double)(1ull << 23) - 1.0 : (double)(r % (uint64_t)(int_max + 1));
        store_element(t, b.host(), i, v);
    }
    // Tells a GPU pipeline that the values are on the host and must be copied to the device.
    b.raw()->set_host_dirty(true);
}

void poison(ArgBuffer &b) {
    std::memset(b.host(), 0xFF, (size_t)b.spec().bytes());
}

Comparison compare(const ArgBuffer &out, const ArgBuffer &ref) {
    Comparison c;
    halide_type_t t = ref.spec().type;
    int64_t n = ref.elements() * t.lanes;
    double max_diff = 0, max_ref = 0;
    int64_t worst = -1;
    for (int64_t i = 0; i < n; i++) {
        double r = load_element(t, ref.host(), i), o = load_element(t, out.host(), i);
        double diff;
        if (std::isnan(r) || std::isnan(o)) {
            diff = (std::isnan(r) && std::isnan(o)) ? 0.0 : std::numeric_limits<double>::infinity();
        } else {
            diff = std::abs(o - r);
            max_ref = std::max(max_ref, std::abs(r));
        }
        if (diff > max_diff) {
            max_diff = diff;
            worst = i;
        }
    }
    bool is_float = t.code == halide_type_float || t.code == halide_type_bfloat;
    double scale = is_float ? std::max(max_ref, 1e-30) : std::max(max_ref, 1.0);
    c.max_rel_error = std::isinf(max_diff) ? max_diff : max_diff / scale;
    if (worst >= 0) {
        std::ostringstream o;
        o << out.spec().name << "[" << worst << "]: " << load_element(t, out.host(), worst) << " vs reference "
          << load_element(t, ref.host(), worst);
        c.worst = o.str();
    }
    return c;
}

double tolerance_for(halide_type_t t) {
    if (t.code == halide_type_float && t.bits == 64) return 1e-9;
    if (t.code == halide_type_float && t.bits == 32) return 1e-3;
    if (t.code == halide_type_float || t.code == halide_type_bfloat) return 2e-2;
    return 0.0;
}

}  // namespace diet
