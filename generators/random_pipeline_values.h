// Value bounds of the random pipelines (random_pipeline.h): conversions without undefined
// behavior and magnitudes kept finite (int32 without signed overflow, floats finite).
#pragma once

#include "random_pipeline.h"

#include <algorithm>
#include <cmath>

namespace random_pipeline {

using Halide::Float;
using Halide::Int;
using Halide::UInt;

constexpr double kIntLimit = 1 << 22;   // |int32 values| are kept below this (no signed overflow)
constexpr double kFloatLimit = 1e5;

// A constant of type t (Halide has no Expr(double)).
inline Expr konst(const Type &t, double x) { return Halide::Internal::make_const(t, x); }

inline double type_bound(const Type &t) {
    if (t.is_float()) return kFloatLimit;
    if (t.is_uint()) return std::ldexp(1.0, t.bits()) - 1;
    return std::ldexp(1.0, t.bits() - 1);
}

// Converts without undefined behavior: floats are clamped into the integer type's range first
// (and int32 into [-1024, 1024]); integer narrowing wraps, as Halide defines it.
inline Val convert(const Val &v, const Type &t) {
    Type from = v.type();
    if (from == t) return v;
    if (from.is_float() && !t.is_float()) {
        double lo = t.is_uint() ? 0 : t.bits() >= 32 ? -1024 : -type_bound(t);
        double hi = t.bits() >= 32 ? 1024 : type_bound(t);
        return {Halide::cast(t, Halide::clamp(v.e, konst(from, lo), konst(from, hi))), std::min(v.bound, std::max(-lo, hi))};
    }
    // Narrow integers wrap to anything in their range; int32 and floats keep the magnitude.
    return {Halide::cast(t, v.e), !t.is_float() && t.bits() < 32 ? type_bound(t) : v.bound};
}

// Brings a value's magnitude below `limit` when it might exceed it (int32: a mask; float: a soft
// clamp); narrower integers wrap and need nothing.
inline Val fit(const Val &v, double limit) {
    if (v.bound <= limit) return v;
    Type t = v.type();
    if (t.is_float()) return {v.e / (Halide::abs(v.e) + Halide::cast(t, 1)), 1.0};
    if (t == Int(32)) return {(v.e & 1023) - 512, 512};
    return v;
}

inline Val fit_int(const Val &v) { return fit(v, v.type().is_float() ? kFloatLimit : kIntLimit); }

}  // namespace random_pipeline
