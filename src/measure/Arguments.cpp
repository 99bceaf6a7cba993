#include "measure/Arguments.h"

#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace diet {

int64_t ArgSpec::elements() const {
    int64_t n = 1;
    for (int64_t e : extent) n *= e;
    return n;
}

int64_t ArgSpec::bytes() const {
    return elements() * ((type.bits + 7) / 8) * type.lanes;
}

std::string type_name(halide_type_t t) {
    std::string base;
    switch (t.code) {
    case halide_type_int: base = "int"; break;
    case halide_type_uint: base = "uint"; break;
    case halide_type_float: base = "float"; break;
    case halide_type_bfloat: base = "bfloat"; break;
    default: base = "handle"; break;
    }
    std::string s = base + std::to_string(t.bits);
    if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
    return s;
}

bool parse_type_name(const std::string &s, halide_type_t *t) {
    static const std::pair<const char *, halide_type_code_t> codes[] = {{"uint", halide_type_uint},
                                                                        {"int", halide_type_int},
                                                                        {"bfloat", halide_type_bfloat},
                                                                        {"float", halide_type_float}};
    for (const auto &[prefix, code] : codes) {
        size_t n = std::strlen(prefix);
        if (s.compare(0, n, prefix) != 0) continue;
        std::string rest = s.substr(n);
        int bits = 0, lanes = 1;
        size_t x = rest.find('x');
        try {
            bits = std::stoi(rest.substr(0, x));
            if (x != std::string::npos) lanes = std::stoi(rest.substr(x + 1));
        } catch (const std::exception &) {
            return false;
        }
        if (bits <= 0 || bits > 64 || lanes <= 0) return false;
        *t = halide_type_t(code, (uint8_t)bits, (uint16_t)lanes);
        return true;
    }
    return false;
}

const char *kind_name(ArgKind k) {
    switch (k) {
    case ArgKind::Scalar: return "scalar";
    case ArgKind::Input: return "input";
    case ArgKind::Output: return "output";
    }
    return "?";
}

void to_json(nlohmann::json &j, const ArgSpec &a) {
    j = nlohmann::json{{"name", a.name}, {"kind", kind_name(a.kind)}, {"type", type_name(a.type)}};
    if (a.is_buffer()) {
        j["min"] = a.min;
        j["extent"] = a.extent;
    } else {
        j["value"] = a.value;
    }
}

void from_json(const nlohmann::json &j, ArgSpec &a) {
    a.name = j.at("name").get<std::string>();
    std::string kind = j.at("kind").get<std::string>();
    if (kind == "scalar") {
        a.kind = ArgKind::Scalar;
    } else if (kind == "input") {
        a.kind = ArgKind::Input;
    } else if (kind == "output") {
        a.kind = ArgKind::Output;
    } else {
        throw std::invalid_argument("argument " + a.name + ": unknown kind '" + kind + "'");
    }
    if (!parse_type_name(j.at("type").get<std::string>(), &a.type)) {
        throw std::invalid_argument("argument " + a.name + ": unknown type '" + j.at("type").get<std::string>() + "'");
    }
    if (a.is_buffer()) {
        a.min = j.at("min").get<std::vector<int64_t>>();
        a.extent = j.at("extent").get<std::vector<int64_t>>();
        if (a.min.size() != a.extent.size()) {
            throw std::invalid_argument("argument " + a.name + ": min and extent differ in length");
        }
        for (int64_t e : a.extent) {
            if (e < 1) throw std::invalid_argument("argument " + a.name + ": extent " + std::to_string(e) + " < 1");
        }
    } else {
        a.value = j.at("value").get<double>();
    }
}

namespace {

uint16_t float_to_half_bits(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));  // inf / nan
    if (exp >= 31) return (uint16_t)(sign | 0x7c00u);                                         // overflow: inf
    if (exp <= 0) {
        if (exp < -10) return (uint16_t)sign;  // underflow: signed zero
        mant |= 0x800000u;                     // subnormal half
        return (uint16_t)(sign | (mant >> (14 - exp)));
    }
    return (uint16_t)(sign | ((uint32_t)exp << 10) | (mant >> 13));
}

float half_bits_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
    uint32_t x;
    if (exp == 0x1f) {
        x = sign | 0x7f800000u | (mant << 13);
    } else if (exp == 0) {
        float f = std::ldexp((float)mant, -24);
        return sign ? -f : f;
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

}  // namespace

double load_element(halide_type_t t, const void *base, int64_t i) {
    switch (t.code) {
    case halide_type_float:
        if (t.bits == 32) return ((const float *)base)[i];
        if (t.bits == 64) return ((const double *)base)[i];
        if (t.bits == 16) return half_bits_to_float(((const uint16_t *)base)[i]);
        break;
    case halide_type_bfloat:
        if (t.bits == 16) {
            uint32_t x = (uint32_t)((const uint16_t *)base)[i] << 16;
            float f;
            std::memcpy(&f, &x, 4);
            return f;
        }
        break;
    case halide_type_int:
        switch (t.bits) {
        case 8: return ((const int8_t *)base)[i];
        case 16: return ((const int16_t *)base)[i];
        case 32: return ((const int32_t *)base)[i];
        case 64: return (double)((const int64_t *)base)[i];
        }
        break;
    case halide_type_uint:
        switch (t.bits) {
        case 1:
        case 8: return ((const uint8_t *)base)[i];
        case 16: return ((const uint16_t *)base)[i];
        case 32: return ((const uint32_t *)base)[i];
        case 64: return (double)((const uint64_t *)base)[i];
        }
        break;
    default: break;
    }
    return std::nan("");
}

void store_element(halide_type_t t, void *base, int64_t i, double v) {
    switch (t.code) {
    case halide_type_float:
        if (t.bits == 32) ((float *)base)[i] = (float)v;
        if (t.bits == 64) ((double *)base)[i] = v;
        if (t.bits == 16) ((uint16_t *)base)[i] = float_to_half_bits((float)v);
        return;
    case halide_type_bfloat: {
        float f = (float)v;
        uint32_t x;
        std::memcpy(&x, &f, 4);
        ((uint16_t *)base)[i] = (uint16_t)(x >> 16);
        return;
    }
    case halide_type_int:
        switch (t.bits) {
        case 8: ((int8_t *)base)[i] = (int8_t)v; return;
        case 16: ((int16_t *)base)[i] = (int16_t)v; return;
        case 32: ((int32_t *)base)[i] = (int32_t)v; return;
        case 64: ((int64_t *)base)[i] = (int64_t)v; return;
        }
        return;
    case halide_type_uint:
        switch (t.bits) {
        case 1: ((uint8_t *)base)[i] = v != 0; return;
        case 8: ((uint8_t *)base)[i] = (uint8_t)v; return;
        case 16: ((uint16_t *)base)[i] = (uint16_t)v; return;
        case 32: ((uint32_t *)base)[i] = (uint32_t)v; return;
        case 64: ((uint64_t *)base)[i] = (uint64_t)v; return;
        }
        return;
    default: return;
    }
}

bool target_string_has_cuda(const std::string &target) {
    std::istringstream in(target);
    std::string token;
    while (std::getline(in, token, '-')) {
        if (token == "cuda") return true;
    }
    return false;
}

}  // namespace diet
