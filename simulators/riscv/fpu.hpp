// F/D helpers: NaN-boxing, canonical NaNs, classification, IEEE min/max,
// float-to-integer conversions with RISC-V saturation, and the bridge between
// the host FPU (rounding mode, sticky exception flags) and fcsr.
//
// Arithmetic runs on the host FPU: its rounding mode is kept equal to the
// guest's frm while the simulator runs, and its sticky flags accumulate the
// guest's fflags, which are folded into Hart::fflags whenever fflags is read
// and at the end of every run() call. Results that are NaN are replaced by the
// RISC-V canonical NaN, since x86 and RISC-V propagate NaNs differently.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace fm::rv::fpu {

constexpr std::uint64_t kBox = 0xffffffff00000000ull;
constexpr std::uint32_t kCanonNaNS = 0x7fc00000u;
constexpr std::uint64_t kCanonNaND = 0x7ff8000000000000ull;

// fflags bits.
constexpr std::uint32_t kNX = 1, kUF = 2, kOF = 4, kDZ = 8, kNV = 16;

inline float as_f(std::uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline double as_d(std::uint64_t u) { double d; std::memcpy(&d, &u, 8); return d; }
inline std::uint32_t bits_f(float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline std::uint64_t bits_d(double d) { std::uint64_t u; std::memcpy(&u, &d, 8); return u; }

// A single read from an FP register: improperly boxed values read as the canonical NaN.
inline std::uint32_t unbox(std::uint64_t r) {
    return (r & kBox) == kBox ? static_cast<std::uint32_t>(r) : kCanonNaNS;
}
inline float get_s(std::uint64_t r) { return as_f(unbox(r)); }
inline double get_d(std::uint64_t r) { return as_d(r); }
inline std::uint64_t box(std::uint32_t u) { return kBox | u; }
inline std::uint64_t put_s(float v) {
    return std::isnan(v) ? box(kCanonNaNS) : box(bits_f(v));
}
inline std::uint64_t put_d(double v) { return std::isnan(v) ? kCanonNaND : bits_d(v); }

inline bool is_snan_s(std::uint32_t u) {
    return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0 && (u & 0x00400000u) == 0;
}
inline bool is_snan_d(std::uint64_t u) {
    return (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
           (u & 0x000fffffffffffffull) != 0 && (u & 0x0008000000000000ull) == 0;
}

// Host flags <-> fflags.
inline std::uint32_t host_flags() {
    const int e = std::fetestexcept(FE_ALL_EXCEPT);
    return ((e & FE_INEXACT) ? kNX : 0) | ((e & FE_UNDERFLOW) ? kUF : 0) |
           ((e & FE_OVERFLOW) ? kOF : 0) | ((e & FE_DIVBYZERO) ? kDZ : 0) |
           ((e & FE_INVALID) ? kNV : 0);
}

// RISC-V rm -> host rounding mode. RMM (4) has no host equivalent: arithmetic
// uses round-to-nearest-even for it (conversions to integer honour RMM).
inline int host_round(std::uint32_t rm) {
    switch (rm) {
        case 1: return FE_TOWARDZERO;
        case 2: return FE_DOWNWARD;
        case 3: return FE_UPWARD;
        default: return FE_TONEAREST;
    }
}

// Round to an integral value in the given RISC-V mode without touching host flags.
inline double round_int(double v, std::uint32_t rm) {
    switch (rm) {
        case 1: return std::trunc(v);
        case 2: return std::floor(v);
        case 3: return std::ceil(v);
        case 4: return std::round(v);
        default: {
            double r = std::round(v);
            if (std::fabs(r - v) == 0.5) r = 2.0 * std::round(v / 2.0);
            return r;
        }
    }
}

// Float -> integer with RISC-V saturation and flags (spec table "FCVT.int.fmt").
// Bits is the destination width, Signed its signedness; the result is the
// 64-bit register value (32-bit results sign-extended).
template <int Bits, bool Signed>
inline std::uint64_t to_int(double v, std::uint32_t rm, std::uint32_t& flags) {
    fexcept_t saved;
    std::fegetexceptflag(&saved, FE_ALL_EXCEPT);
    std::uint64_t out;
    if (std::isnan(v)) {
        flags |= kNV;
        if (Signed) out = Bits == 32 ? 0x7fffffffull : 0x7fffffffffffffffull;
        else out = ~0ull;
    } else {
        const double r = round_int(v, rm);
        const double lo = Signed ? (Bits == 32 ? -2147483648.0 : -9223372036854775808.0) : 0.0;
        const double hi_excl = Signed ? (Bits == 32 ? 2147483648.0 : 9223372036854775808.0)
                                      : (Bits == 32 ? 4294967296.0 : 18446744073709551616.0);
        if (r < lo) {
            flags |= kNV;
            out = Signed ? (Bits == 32 ? 0xffffffff80000000ull : 0x8000000000000000ull) : 0;
        } else if (r >= hi_excl) {
            flags |= kNV;
            if (Signed) out = Bits == 32 ? 0x7fffffffull : 0x7fffffffffffffffull;
            else out = ~0ull;
        } else {
            if (r != v) flags |= kNX;
            if (Signed) {
                out = static_cast<std::uint64_t>(static_cast<std::int64_t>(r));
            } else {
                const std::uint64_t u = static_cast<std::uint64_t>(r);
                out = Bits == 32 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(
                                       static_cast<std::int32_t>(static_cast<std::uint32_t>(u))))
                                 : u;
            }
        }
    }
    std::fesetexceptflag(&saved, FE_ALL_EXCEPT);
    return out;
}

template <class T>
inline unsigned classify(T v, bool snan) {
    const bool neg = std::signbit(v);
    switch (std::fpclassify(v)) {
        case FP_INFINITE: return neg ? 1u << 0 : 1u << 7;
        case FP_NORMAL: return neg ? 1u << 1 : 1u << 6;
        case FP_SUBNORMAL: return neg ? 1u << 2 : 1u << 5;
        case FP_ZERO: return neg ? 1u << 3 : 1u << 4;
        default: return snan ? 1u << 8 : 1u << 9;
    }
}

// fmin/fmax (RISC-V 2.2 semantics: a NaN operand yields the other operand;
// -0 < +0; signalling NaNs raise NV).
template <bool Max>
inline std::uint64_t minmax_d(std::uint64_t a, std::uint64_t b, std::uint32_t& flags) {
    if (is_snan_d(a) || is_snan_d(b)) flags |= kNV;
    const double x = as_d(a), y = as_d(b);
    const bool xn = std::isnan(x), yn = std::isnan(y);
    if (xn && yn) return kCanonNaND;
    if (xn) return b;
    if (yn) return a;
    if (x == y) {  // equal, possibly +0/-0
        const bool take_a = Max ? !std::signbit(x) : std::signbit(x);
        return take_a ? a : b;
    }
    return (Max ? x > y : x < y) ? a : b;
}

template <bool Max>
inline std::uint32_t minmax_s(std::uint32_t a, std::uint32_t b, std::uint32_t& flags) {
    if (is_snan_s(a) || is_snan_s(b)) flags |= kNV;
    const float x = as_f(a), y = as_f(b);
    const bool xn = std::isnan(x), yn = std::isnan(y);
    if (xn && yn) return kCanonNaNS;
    if (xn) return b;
    if (yn) return a;
    if (x == y) {
        const bool take_a = Max ? !std::signbit(x) : std::signbit(x);
        return take_a ? a : b;
    }
    return (Max ? x > y : x < y) ? a : b;
}

// Comparisons: feq is quiet (NV only for sNaN), flt/fle signal on any NaN.
template <class T>
inline std::uint64_t cmp(T x, T y, int kind, bool snan, std::uint32_t& flags) {
    if (std::isnan(x) || std::isnan(y)) {
        if (kind != 0 || snan) flags |= kNV;
        return 0;
    }
    if (kind == 0) return x == y;
    if (kind == 1) return x < y;
    return x <= y;
}

}  // namespace fm::rv::fpu
