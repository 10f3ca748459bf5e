// The functor table of the pointwise engine (binary_pointwise.h): one struct
// per op, operator() over the compute type T (float, double, int64_t, uint64_t, and the
// complex types where kComplex says so; phase 1 gives the others no complex
// operand). kArity operands, in the order the op layer passes them. Results
// follow PyTorch: a NaN operand gives NaN (clamp), comparisons with NaN are
// false, integer results wrap.
#pragma once

#include <bit>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "element_types.h"

namespace canopy::kernels {

template <typename T>
inline bool IsNan(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(x);
  } else {
    return false;
  }
}

// A comparison's result in the compute type: 1 or 0 (stored as true / false in a bool out).
template <typename T>
inline T Truth(bool b) {
  return b ? T(1) : T(0);
}

struct EqFn {
  static constexpr int kArity = 2;
  static constexpr bool kComplex = true;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>(a == b);
  }
};

struct GtFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>(a > b);
  }
};

struct GeFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>(a >= b);
  }
};

struct LtFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>(a < b);
  }
};

struct LeFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>(a <= b);
  }
};

// NaN differs from everything, itself included.
struct NeFn {
  static constexpr int kArity = 2;
  static constexpr bool kComplex = true;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>(a != b);
  }
};

// The larger / smaller of a and b, NaN where either is NaN (torch.maximum, torch.minimum).
struct MaximumFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return a < b ? b : a;
  }
};

struct MinimumFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return b < a ? b : a;
  }
};

// Truth values: non-zero (NaN included; a complex number with either part
// non-zero) is true (torch.logical_and, logical_or, logical_xor).
struct LogicalAndFn {
  static constexpr int kArity = 2;
  static constexpr bool kComplex = true;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>(a != T(0) && b != T(0));
  }
};

struct LogicalOrFn {
  static constexpr int kArity = 2;
  static constexpr bool kComplex = true;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>(a != T(0) || b != T(0));
  }
};

struct LogicalXorFn {
  static constexpr int kArity = 2;
  static constexpr bool kComplex = true;
  template <typename T>
  T operator()(T a, T b) const {
    return Truth<T>((a != T(0)) != (b != T(0)));
  }
};

// max(x, lo) and min(x, hi) propagating NaN from either operand (torch.clamp_min, clamp_max).
struct ClampMinFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T x, T lo) const {
    if (IsNan(lo)) return lo;
    return x < lo ? lo : x;  // a NaN x fails the test and is kept
  }
};

struct ClampMaxFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T x, T hi) const {
    if (IsNan(hi)) return hi;
    return x > hi ? hi : x;
  }
};

// min(max(x, lo), hi): where lo > hi every element becomes hi (torch.clamp,
// and what CANN's kernel computes).
struct ClampFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T x, T lo, T hi) const {
    return ClampMaxFn{}(ClampMinFn{}(x, lo), hi);
  }
};

// base ^ exponent. Integers: exact, wrapping, by repeated squaring; a negative
// exponent gives 1 / base truncated (1 for base 1, +-1 for base -1, else 0),
// as torch.pow does for integer tensors.
struct PowFn {
  static constexpr int kArity = 2;
  static constexpr bool kComplex = true;
  template <typename T>
  T operator()(T base, T exponent) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (exponent < 0) {
          if (base == 1) return 1;
          if (base == -1) return (exponent & 1) != 0 ? -1 : 1;
          return 0;
        }
      }
      using U = std::make_unsigned_t<T>;
      U result = 1, square = static_cast<U>(base);
      for (auto e = static_cast<U>(exponent); e != 0; e >>= 1) {
        if ((e & 1) != 0) result *= square;
        square *= square;
      }
      return static_cast<T>(result);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      // complex<float> pow loses several ulps in exp(y log x); complex<double> rounds once.
      const std::complex<double> r = std::pow(std::complex<double>(base), std::complex<double>(exponent));
      return T(static_cast<float>(r.real()), static_cast<float>(r.imag()));
    } else {
      return std::pow(base, exponent);
    }
  }
};

// base ** exponent for a scalar exponent, as CANN's A2 host code computes it:
// FLOAT16 / FLOAT / BF16 (computed in f32) go to its Pows kernel for 2, 3,
// 0.5, -0.5, -1 and -2 (x * x, x * x * x, sqrt(x), 1 / sqrt(x), 1 / x,
// 1 / (x * x): sqrt(-0) is -0 and sqrt(-inf) NaN there), every other dtype
// to Square for 2. PyTorch special-cases the same exponents. Else PowFn.
struct PowScalarFn {
  static constexpr int kArity = 2;
  static constexpr bool kComplex = true;
  // Whether an f32 exponent takes one of the forms below.
  static constexpr bool Special(float e) {
    return e == 2.0f || e == 3.0f || e == 0.5f || e == -0.5f || e == -1.0f || e == -2.0f;
  }
  template <typename T>
  T operator()(T base, T exponent) const {
    if constexpr (std::is_same_v<T, float>) {
      if (exponent == 2.0f) return base * base;
      if (exponent == 3.0f) return base * base * base;
      if (exponent == 0.5f) return std::sqrt(base);
      if (exponent == -0.5f) return 1.0f / std::sqrt(base);
      if (exponent == -1.0f) return 1.0f / base;
      if (exponent == -2.0f) return 1.0f / (base * base);
    } else if constexpr (!std::is_integral_v<T>) {  // DOUBLE and the complex dtypes
      if (exponent == T(2)) return base * base;
    }
    return PowFn{}(base, exponent);
  }
};

// mask ? value : x (the mask loads as 1 / 0).
struct MaskedFillFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T x, T mask, T value) const {
    return mask != T(0) ? value : x;
  }
};

// self + value * tensor1 / tensor2 (true division: integer operands compute
// in a float type and the result truncates when stored).
struct AddcdivFn {
  static constexpr int kArity = 4;
  template <typename T>
  T operator()(T self, T tensor1, T tensor2, T value) const {
    if constexpr (std::is_integral_v<T>) {  // never integer division (no trap on a zero divisor)
      return Convert<T>(static_cast<double>(self) +
                        static_cast<double>(value) * (static_cast<double>(tensor1) / static_cast<double>(tensor2)));
    } else {
      return self + value * (tensor1 / tensor2);
    }
  }
};

// self - trunc(self / other) * other (torch.fmod: the sign of the dividend),
// std::fmod on floats (exact; 0 divisor NaN). Integers: exact; a zero divisor,
// which CANN leaves undefined, gives self (a quotient of 0, as Canopy's DivMod
// does), and -1 gives 0 (no overflow of MIN / -1).
struct FmodFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (std::is_integral_v<T>) {
      if (other == 0) return self;
      if constexpr (std::is_signed_v<T>) {
        if (other == -1) return 0;
      }
      return self % other;
    } else {
      return std::fmod(self, other);
    }
  }
};

// Bitwise and / or / xor of integers (torch.bitwise_and, _or, _xor); bool
// operands load as 1 / 0, so they give the logical result. Phase 1 gives them
// integer and bool operands only (a float compute type never reaches them).
#define CANOPY_BITWISE_FN(Fn, op)            \
  struct Fn {                                \
    static constexpr int kArity = 2;         \
    template <typename T>                    \
    T operator()(T a, T b) const {           \
      if constexpr (std::is_integral_v<T>) { \
        return static_cast<T>(a op b);       \
      } else {                               \
        return T(0);                         \
      }                                      \
    }                                        \
  };
CANOPY_BITWISE_FN(BitwiseAndFn, &)
CANOPY_BITWISE_FN(BitwiseOrFn, |)
CANOPY_BITWISE_FN(BitwiseXorFn, ^)
#undef CANOPY_BITWISE_FN

// The greatest common divisor of |a| and |b| (torch.gcd): gcd(a, 0) = |a|,
// gcd(0, 0) = 0. The magnitudes are taken as unsigned, so the most negative
// value has one (2^63 wraps back to itself, as PyTorch's gives). Phase 1 gives
// it integer operands only.
struct GcdFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      U x = a < 0 ? U(0) - static_cast<U>(a) : static_cast<U>(a);
      U y = b < 0 ? U(0) - static_cast<U>(b) : static_cast<U>(b);
      while (y != 0) {
        const U r = x % y;
        x = y;
        y = r;
      }
      return static_cast<T>(x);
    } else {
      return T(0);
    }
  }
};

// atan2(y, x): the angle of the point (x, y) (torch.atan2). Phase 1 computes
// integer operands in FLOAT, so the integer instantiation is never run.
struct Atan2Fn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T y, T x) const {
    if constexpr (std::is_integral_v<T>) {
      return Convert<T>(std::atan2(static_cast<double>(y), static_cast<double>(x)));
    } else {
      return std::atan2(y, x);
    }
  }
};

// Integer division rounded toward negative infinity, exact and wrapping; a
// zero divisor, which CANN leaves undefined, gives 0 (Canopy's DivMod does
// the same), and MIN / -1 wraps to MIN.
template <typename T>
T FloorQuotient(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (b == -1) return static_cast<T>(U(0) - static_cast<U>(a));
    const T quotient = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? quotient - 1 : quotient;
  } else {
    return a / b;
  }
}

// self - floor(self / other) * other: the divisor's sign (torch.remainder,
// Python's %). Floats: fmod moved into the divisor's sign, so the result is
// exact; a zero divisor gives NaN. Integers: exact; a zero divisor, which
// CANN leaves undefined, gives self (as Fmod does).
struct RemainderFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (std::is_integral_v<T>) {
      if (other == 0) return self;
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(self) - static_cast<U>(FloorQuotient(self, other)) * static_cast<U>(other));
    } else {
      T r = std::fmod(self, other);
      if (r != T(0) && ((r < T(0)) != (other < T(0)))) r += other;
      return r;
    }
  }
};

// floor(self / other) (torch.floor_divide). Floats as PyTorch computes them:
// from fmod's exact remainder, (self - r) / other corrected by one toward
// negative infinity, then rounded to the nearest integer (so 1 / 0.1 gives 9,
// the floor of the exact quotient, not floor(10.000000000000002)); a zero
// divisor gives self / 0 (inf or NaN); a zero quotient keeps the sign.
struct FloorDivideFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (std::is_integral_v<T>) {
      return FloorQuotient(self, other);
    } else {
      if (other == T(0)) return self / other;
      const T r = std::fmod(self, other);
      T quotient = (self - r) / other;
      if (r != T(0) && ((other < T(0)) != (r < T(0)))) quotient -= T(1);
      if (quotient == T(0)) return std::copysign(T(0), self / other);
      T floored = std::floor(quotient);
      if (quotient - floored > T(0.5)) floored += T(1);
      return floored;
    }
  }
};

// self << shift and self >> shift on the integers of a `bits`-wide dtype
// (the op layer passes the width of the dtype it computes in; the result is
// wrapped to that dtype when stored). Left: a shift outside [0, bits) gives 0
// (CANN defines only that range; torch.bitwise_left_shift gives the same).
// Right: the shift is clamped into [0, bits - 1], as CANN's kernel does, so
// signed values fill with their sign and a negative shift leaves self.
struct LeftShiftFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T self, T shift, T bits) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      if constexpr (std::is_signed_v<T>) {
        if (shift < 0) return T(0);
      }
      if (shift >= bits) return T(0);
      return static_cast<T>(static_cast<U>(self) << static_cast<U>(shift));
    } else {
      return T(0);
    }
  }
};

struct RightShiftFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T self, T shift, T bits) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (shift < 0) return self;
      }
      return static_cast<T>(self >> (shift >= bits ? bits - 1 : shift));
    } else {
      return T(0);
    }
  }
};

// other - alpha * self (torch.rsub); integers wrap.
struct RsubFn {
  static constexpr int kArity = 3;
  static constexpr bool kComplex = true;
  template <typename T>
  T operator()(T self, T other, T alpha) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(other) - static_cast<U>(alpha) * static_cast<U>(self));
    } else {
      return other - alpha * self;
    }
  }
};

// |self - other| <= atol + rtol * |other|, or equal (torch.isclose: an
// infinity is close only to itself); NaN is close to NaN only in the
// EqualNan form. Integers compute exactly in int64: their rtol and atol
// operands carry a double's bits (ops/math/is_close.cpp), compared in long double
// with the exact difference.
template <bool kEqualNan>
struct IsCloseFn {
  static constexpr int kArity = 4;
  template <typename T>
  T operator()(T self, T other, T rtol, T atol) const {
    if constexpr (std::is_integral_v<T>) {
      if (self == other) return T(1);
      using U = std::make_unsigned_t<T>;
      const U difference =
          self > other ? static_cast<U>(self) - static_cast<U>(other) : static_cast<U>(other) - static_cast<U>(self);
      const U magnitude = other < T(0) ? U(0) - static_cast<U>(other) : static_cast<U>(other);
      const long double tolerance = static_cast<long double>(std::bit_cast<double>(static_cast<int64_t>(atol))) +
                                    static_cast<long double>(std::bit_cast<double>(static_cast<int64_t>(rtol))) *
                                        static_cast<long double>(magnitude);
      return Truth<T>(static_cast<long double>(difference) <= tolerance);
    } else {
      if (self == other) return T(1);
      if (std::isnan(self) || std::isnan(other)) return Truth<T>(kEqualNan && std::isnan(self) && std::isnan(other));
      if (std::isinf(self) || std::isinf(other)) return T(0);
      return Truth<T>(std::abs(self - other) <= atol + rtol * std::abs(other));
    }
  }
};
using IsCloseNotNanFn = IsCloseFn<false>;
using IsCloseEqualNanFn = IsCloseFn<true>;

// self + weight * (end - self) (torch.lerp), evaluated from the nearer end
// (end - (end - self) * (1 - weight) once weight reaches 0.5, as CANN and
// PyTorch do) so that weight 1 gives end exactly.
struct LerpFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T self, T end, T weight) const {
    const T diff = end - self;
    return weight < T(0.5) ? self + weight * diff : end - diff * (T(1) - weight);
  }
};

// self + value * tensor1 * tensor2 (torch.addcmul); integers wrap.
struct AddcmulFn {
  static constexpr int kArity = 4;
  template <typename T>
  T operator()(T self, T tensor1, T tensor2, T value) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(self) +
                            static_cast<U>(value) * static_cast<U>(tensor1) * static_cast<U>(tensor2));
    } else {
      return self + value * tensor1 * tensor2;
    }
  }
};

// x * log(y), 0 where x is 0 and y is not NaN (torch.xlogy). Phase 1
// computes integers in FLOAT.
struct XLogYFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      return T(0);
    } else {
      if (x == T(0) && !std::isnan(y)) return T(0);
      return x * std::log(y);
    }
  }
};

// log(exp(a) + exp(b)) and log2(2^a + 2^b) without overflow: the larger plus
// log1p of the smaller's share (torch.logaddexp, logaddexp2); equal infinities
// give themselves.
template <bool kBase2>
struct LogAddExpBaseFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return T(0);
    } else {
      if (std::isinf(a) && a == b) return a;
      const T larger = std::max(a, b);
      if constexpr (kBase2) {
        return larger + std::log1p(std::exp2(-std::abs(a - b))) / T(0.69314718055994530942);
      } else {
        return larger + std::log1p(std::exp(-std::abs(a - b)));
      }
    }
  }
};
using LogAddExpFn = LogAddExpBaseFn<false>;
using LogAddExp2Fn = LogAddExpBaseFn<true>;

}  // namespace canopy::kernels
