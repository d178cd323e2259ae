// F/D helpers: NaN-boxing, canonical NaNs, classification, IEEE min/max,
// float-to-integer conversions with RISC-V saturation, and the bridge between
// the host FPU (rounding mode, sticky exception flags) and fcsr.
//
// Arithmetic runs on the host FPU (x86-64: SSE for results, x87 long double
// for RMM): its rounding mode is kept equal to the guest's frm while the simulator runs, and its sticky flags accumulate the
// guest's fflags, which are folded into Hart::fflags whenever fflags is read
// and at the end of every run() call. Results that are NaN are replaced by the
// RISC-V canonical NaN, since x86 and RISC-V propagate NaNs differently.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

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

// RISC-V rm -> host rounding mode. RMM (4) has no host equivalent; it goes
// through rmm_op() below (callers never set the host to it).
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

// --- RMM: round to nearest, ties to max magnitude -------------------------
// The host cannot round this way, so an RMM operation is computed in a wider
// format (double for singles, x87 long double for doubles) with round-to-odd:
// truncate, and if anything was lost set the lowest mantissa bit. With at
// least two more bits of precision than the target, that value rounds to the
// target exactly as the infinitely precise result would, so the final
// rounding can be done by hand. The wider formats also have the exponent
// range to hold every product, quotient and sum of target-format operands.

template <class V>
inline void launder(V& v) {
    // Keeps the compiler from moving FP arithmetic across the mode switches.
    __asm__ volatile("" : "+m"(v));
}

inline double make_odd(double w) {
    std::uint64_t u;
    std::memcpy(&u, &w, 8);
    u |= 1;
    std::memcpy(&w, &u, 8);
    return w;
}

inline long double make_odd(long double w) {
    static_assert(sizeof(long double) >= 10, "x87 extended precision expected");
    unsigned char b[sizeof(long double)];
    std::memcpy(b, &w, sizeof b);
    b[0] |= 1;  // the explicit 64-bit mantissa starts at byte 0
    std::memcpy(&w, b, sizeof b);
    return w;
}

template <class T> struct Limits;
template <> struct Limits<float> {
    static constexpr int kPrecision = 24;
    static constexpr float kMinNormal = 1.17549435082228750797e-38f;
};
template <> struct Limits<double> {
    static constexpr int kPrecision = 53;
    static constexpr double kMinNormal = 2.22507385850720138309e-308;
};

// Round a wide value (already rounded to odd) to T with ties away from zero;
// `inexact` says whether producing w already lost bits.
template <class T, class Wide>
inline T round_rmm(Wide w, bool inexact, std::uint32_t& flags) {
    if (std::isnan(w) || std::isinf(w)) return static_cast<T>(w);
    fexcept_t saved;
    std::fegetexceptflag(&saved, FE_ALL_EXCEPT);
    const int mode = std::fegetround();
    std::fesetround(FE_TOWARDZERO);
    launder(w);
    T t = static_cast<T>(w);  // truncation (saturates at the largest finite value)
    launder(t);
    std::fesetround(mode);
    T res = t;
    if (static_cast<Wide>(t) != w) {
        inexact = true;
        const T inf = std::numeric_limits<T>::infinity();
        const T away = std::nextafter(t, w > 0 ? inf : -inf);
        Wide mid;
        if (std::isinf(away)) {  // t is the largest finite value: the midpoint is half an ulp above
            const Wide ulp = static_cast<Wide>(t) - static_cast<Wide>(std::nextafter(t, T(0)));
            mid = static_cast<Wide>(t) + ulp / 2;
        } else {
            mid = static_cast<Wide>(t) + (static_cast<Wide>(away) - static_cast<Wide>(t)) / 2;
        }
        res = std::fabs(w) >= std::fabs(mid) ? away : t;
    }
    std::fesetexceptflag(&saved, FE_ALL_EXCEPT);
    if (inexact) {
        flags |= kNX;
        if (std::isinf(res)) flags |= kOF;
        // Tininess after rounding (with unbounded exponent): below the point
        // from which ties-away rounding reaches the smallest normal number.
        const Wide tiny_below = static_cast<Wide>(Limits<T>::kMinNormal) *
                                (Wide(1) - std::ldexp(Wide(1), -(Limits<T>::kPrecision + 1)));
        if (std::fabs(w) < tiny_below) flags |= kUF;
    }
    return res;
}

// An RMM operation: `op` evaluated on the operands converted to Wide, under
// round-toward-zero, rounded to odd, then rounded to T. Invalid and
// divide-by-zero come from the wide evaluation (they do not depend on rounding).
template <class T, class Wide, class Op, class A>
inline T rmm_op(Op op, A a, A b, A c, std::uint32_t& flags) {
    fexcept_t saved;
    std::fegetexceptflag(&saved, FE_ALL_EXCEPT);
    const int mode = std::fegetround();
    std::fesetround(FE_TOWARDZERO);
    std::feclearexcept(FE_ALL_EXCEPT);
    launder(a);
    launder(b);
    launder(c);
    Wide w = op(static_cast<Wide>(a), static_cast<Wide>(b), static_cast<Wide>(c));
    launder(w);
    const int e = std::fetestexcept(FE_ALL_EXCEPT);
    std::fesetround(mode);
    std::fesetexceptflag(&saved, FE_ALL_EXCEPT);
    if (e & FE_INVALID) flags |= kNV;
    if (e & FE_DIVBYZERO) flags |= kDZ;
    if (std::isnan(w)) return std::numeric_limits<T>::quiet_NaN();
    const bool inexact = (e & FE_INEXACT) != 0;
    if (inexact && w != 0) w = make_odd(w);
    return round_rmm<T>(w, inexact, flags);
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
