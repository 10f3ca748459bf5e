// The functor table of the pointwise engine (binary_pointwise.h): one struct
// per op, operator() over the compute type T (float, double, int64_t, uint64_t, and the
// complex types where kComplex says so; phase 1 gives the others no complex
// operand). kArity operands, in the order the op layer passes them. Results
// follow PyTorch: a NaN operand gives NaN (clamp), comparisons with NaN are
// false, integer results wrap.
#pragma once

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

}  // namespace canopy::kernels
