// The unary functor table's elementary functions (part of unary_functors.h,
// which includes this file): exponentials and logarithms, the error
// function, trigonometric and hyperbolic functions and their inverses,
// roots, reciprocals and squares, and rounding to integral values. The
// reference is the C library's float64 function (complex<double> where the
// op takes complex numbers), the vector kernel SLEEF's 1.0-ulp form or an
// exact instruction; kUlps is the bound from unary_accuracy.h.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "element_types.h"
#include "unary.h"
#include "unary_accuracy.h"

#ifdef CANOPY_SIMD_LANES
#include "simd_lanes.h"
// The vector kernel of a functor: `vector` applied to the lanes.
#define CANOPY_UNARY_VECTOR(vector) \
  template <typename V>             \
  V Vector(V x) const {             \
    return vector(x);               \
  }
#else
#define CANOPY_UNARY_VECTOR(vector)
#endif

// A real function: reference `reference(x)` on float64, vector kernel `vector`.
#define CANOPY_UNARY_REAL_FN(Fn, reference, vector, ulps) \
  struct Fn {                                             \
    static constexpr double kUlps = ulps;                 \
    explicit Fn(const UnaryParams&) {}                    \
    template <typename T>                                 \
    T operator()(T x) const {                             \
      return reference(x);                                \
    }                                                     \
    CANOPY_UNARY_VECTOR(vector)                           \
  };
// The same for a function the C++ library also defines on complex numbers.
#define CANOPY_UNARY_COMPLEX_FN(Fn, reference, vector, ulps) \
  struct Fn {                                                \
    static constexpr bool kComplex = true;                   \
    static constexpr double kUlps = ulps;                    \
    explicit Fn(const UnaryParams&) {}                       \
    template <typename T>                                    \
    T operator()(T x) const {                                \
      return reference(x);                                   \
    }                                                        \
    CANOPY_UNARY_VECTOR(vector)                              \
  };

namespace canopy::kernels {

#ifdef CANOPY_SIMD_LANES
namespace unary_math {
// x * x exactly where it is representable; integers wrap (two's complement).
template <typename V>
V SquareOf(V x) {
  return Mul(x, x);
}
template <typename V>
V ReciprocalOf(V x) {
  return Div(V::Set(1.0f), x);
}
// simd_lanes.h's Rsqrt: an estimate and a Newton step on AVX-512, the
// quotient on AVX2. On AVX-512 the same step, with the exact results it loses
// (+-0 give +-inf, +inf gives +0) put back by one vfixupimm instead of two
// compares and a blend: the same values, three instructions fewer (16-bit
// rsqrt is memory bound only with them gone).
template <typename V>
V RsqrtOf(V x) {
#if defined(__AVX512F__)
  if constexpr (V::kLanes == 16) {
    const __m512 y = _mm512_maskz_rsqrt14_ps(0xffff, x.v);  // maskz: GCC 12's PR105593, as simd_lanes.h
    const __m512 error = _mm512_fnmadd_ps(_mm512_mul_ps(x.v, y), y, _mm512_set1_ps(1.0f));
    const __m512 refined = _mm512_fmadd_ps(_mm512_mul_ps(y, _mm512_set1_ps(0.5f)), error, y);
    // vfixupimm's table, four bits per class of x: zero (class 2) gives inf with x's sign (response 6),
    // +inf (class 5) gives +0 (response 8); NaN and negative values are NaN already.
    return {_mm512_fixupimm_ps(refined, x.v, _mm512_set1_epi32(0x00800600), 0)};
  }
#endif
  return Rsqrt(x);
}
// x - trunc(x): exact (the fractional part of a float is representable); inf gives NaN.
template <typename V>
V FracOf(V x) {
  return Sub(x, Trunc(x));
}
// SLEEF's asinhf and acoshf overflow to inf from |x| ~ 1.8e19 on (x^2 does);
// there asinh(|x|) = acosh(|x|) = ln|x| + ln 2 to the last bit (the
// neglected 1 / (4 x^2) is below f32's roundoff from |x| = 2^12 on).
template <typename V>
V LargeArcosh(V x) {
  return Add(Log(Abs(x)), V::Set(0.693147180559945309f));
}
// Below |x| = 2^-30 asinh(x) is x (SLEEF's gives +0 for the smallest subnormals).
template <typename V>
V AsinhOf(V x) {
  const V large = LargeArcosh(x);
  const V big = Select(IsNegative(x), Neg(large), large);
  const V result = Select(IsGreater(Abs(x), V::Set(0x1p40f)), big, Asinh(x));
  return Select(IsGreater(V::Set(0x1p-30f), Abs(x)), x, result);
}
template <typename V>
V AcoshOf(V x) {
  return Select(IsGreater(x, V::Set(0x1p40f)), LargeArcosh(x), Acosh(x));
}
// SLEEF's log1pf gives inf from x = 1e38 on, where log1p(x) is log(x) to the
// last bit, and +0 for the smallest subnormals, where log1p(x) is x.
template <typename V>
V Log1pOf(V x) {
  const V result = Select(IsGreater(x, V::Set(1e38f)), Log(x), Log1p(x));
  return Select(IsGreater(V::Set(0x1p-30f), Abs(x)), x, result);
}
// SLEEF's sinhf and coshf overflow with e^|x| from |x| = 88.72 on, although
// the results fit up to 89.415. From |x| = 88 on (e^-|x| is far below
// roundoff) both are e^|x| / 2, taken as e^(|x| / 2) * (e^(|x| / 2) / 2):
// |x| / 2 is exact and no factor overflows first.
template <typename V>
V HalfExpOfAbs(V x) {
  const V root = Exp(Mul(Abs(x), V::Set(0.5f)));
  return Mul(root, Mul(root, V::Set(0.5f)));
}
template <typename V>
V CoshOf(V x) {
  return Select(IsGreater(Abs(x), V::Set(88.0f)), HalfExpOfAbs(x), Cosh(x));
}
template <typename V>
V SinhOf(V x) {
  const V large = HalfExpOfAbs(x);
  return Select(IsGreater(Abs(x), V::Set(88.0f)), Select(IsNegative(x), Neg(large), large), Sinh(x));
}
}  // namespace unary_math
#endif

CANOPY_UNARY_REAL_FN(Exp2Fn, std::exp2, Exp2, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(Expm1Fn, std::expm1, Expm1, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(Log1pFn, std::log1p, unary_math::Log1pOf, unary_accuracy::kSleef)
CANOPY_UNARY_COMPLEX_FN(Log10Fn, std::log10, Log10, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(ErfFn, std::erf, Erf, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(ErfcFn, std::erfc, Erfc, unary_accuracy::kErfc)
CANOPY_UNARY_COMPLEX_FN(TanFn, std::tan, Tan, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(AsinFn, std::asin, Asin, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(AcosFn, std::acos, Acos, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(AtanFn, std::atan, Atan, unary_accuracy::kSleef)
CANOPY_UNARY_COMPLEX_FN(SinhFn, std::sinh, unary_math::SinhOf, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(CoshFn, std::cosh, unary_math::CoshOf, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(AsinhFn, std::asinh, unary_math::AsinhOf, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(AcoshFn, std::acosh, unary_math::AcoshOf, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(AtanhFn, std::atanh, Atanh, unary_accuracy::kSleef)
CANOPY_UNARY_REAL_FN(CeilFn, std::ceil, Ceil, unary_accuracy::kExact)
CANOPY_UNARY_REAL_FN(TruncFn, std::trunc, Trunc, unary_accuracy::kExact)

// log2: complex as log(z) / ln 2 (the C++ library has no complex log2).
struct Log2Fn {
  static constexpr bool kComplex = true;
  static constexpr double kUlps = unary_accuracy::kSleef;
  explicit Log2Fn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      return std::log(x) / typename T::value_type(M_LN2);
    } else {
      return std::log2(x);
    }
  }
  CANOPY_UNARY_VECTOR(Log2)
};

// 1 / sqrt(x): the square root, then the division (0 gives inf, below 0 NaN).
struct RsqrtFn {
  static constexpr bool kComplex = true;
  static constexpr double kUlps = unary_accuracy::kRsqrt;
  explicit RsqrtFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return T(1) / std::sqrt(x);
  }
  CANOPY_UNARY_VECTOR(unary_math::RsqrtOf)
};

// 1 / x (0 gives inf with x's sign).
struct ReciprocalFn {
  static constexpr bool kComplex = true;
  static constexpr double kUlps = unary_accuracy::kReciprocal;
  explicit ReciprocalFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return T(1) / x;
  }
  CANOPY_UNARY_VECTOR(unary_math::ReciprocalOf)
};

// The rounding functions on integer tensors are the identity; on floats exact
// (NaN, infinities and -0 kept). Round is torch.round: halves to even.
struct FloorFn {
  static constexpr bool kIntegers = true;
  static constexpr double kUlps = unary_accuracy::kExact;
  explicit FloorFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return x;
    } else {
      return std::floor(x);
    }
  }
  CANOPY_UNARY_VECTOR(Floor)
};

struct RoundFn {
  static constexpr bool kIntegers = true;
  static constexpr double kUlps = unary_accuracy::kExact;
  explicit RoundFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return x;
    } else {
      return std::nearbyint(x);  // the default rounding mode: to nearest, halves to even
    }
  }
  CANOPY_UNARY_VECTOR(RoundEven)
};

// x - trunc(x) (torch.frac): 0 on integers.
struct FracFn {
  static constexpr bool kIntegers = true;
  static constexpr double kUlps = unary_accuracy::kExact;
  explicit FracFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return T(0);
    } else {
      return x - std::trunc(x);
    }
  }
  CANOPY_UNARY_VECTOR(unary_math::FracOf)
};

// x * x; integers wrap.
struct SquareFn {
  static constexpr bool kIntegers = true;
  static constexpr double kUlps = unary_accuracy::kSquare;
  explicit SquareFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(x) * static_cast<U>(x));
    } else {
      return x * x;
    }
  }
  CANOPY_UNARY_VECTOR(unary_math::SquareOf)
};

// The classification predicates (torch.isfinite, isinf, isposinf, isneginf):
// 1 or 0, stored to a BOOL out; integers are finite.
#ifdef CANOPY_SIMD_LANES
namespace unary_math {
template <typename V, typename M>
V Truth(M m) {
  return Select(m, V::Set(1.0f), V::Set(0.0f));
}
// x - x is 0 for finite x, NaN for NaN and the infinities (which compare unequal to 0).
template <typename V>
V IsFiniteOf(V x) {
  return Truth<V>(IsEqual(Sub(x, x), V::Set(0.0f)));
}
template <typename V>
V IsInfOf(V x) {
  return Truth<V>(IsEqual(Abs(x), V::Set(INFINITY)));
}
template <typename V>
V IsPosInfOf(V x) {
  return Truth<V>(IsEqual(x, V::Set(INFINITY)));
}
template <typename V>
V IsNegInfOf(V x) {
  return Truth<V>(IsEqual(x, V::Set(-INFINITY)));
}
}  // namespace unary_math
#endif

#define CANOPY_UNARY_PREDICATE(Fn, test, vector)            \
  struct Fn {                                               \
    static constexpr double kUlps = unary_accuracy::kExact; \
    explicit Fn(const UnaryParams&) {}                      \
    template <typename T>                                   \
    T operator()(T x) const {                               \
      return (test) ? T(1) : T(0);                          \
    }                                                       \
    CANOPY_UNARY_VECTOR(vector)                             \
  };
CANOPY_UNARY_PREDICATE(IsFiniteFn, std::isfinite(x), unary_math::IsFiniteOf)
CANOPY_UNARY_PREDICATE(IsInfFn, std::isinf(x), unary_math::IsInfOf)
CANOPY_UNARY_PREDICATE(IsPosInfFn, x == T(INFINITY), unary_math::IsPosInfOf)
CANOPY_UNARY_PREDICATE(IsNegInfFn, x == T(-INFINITY), unary_math::IsNegInfOf)
#undef CANOPY_UNARY_PREDICATE

}  // namespace canopy::kernels

#undef CANOPY_UNARY_REAL_FN
#undef CANOPY_UNARY_COMPLEX_FN
#undef CANOPY_UNARY_VECTOR
