// The unary functor table: one struct per op, constructed from its
// UnaryParams. kComplex / kIntegers: defined on complex numbers / exact on
// integers (else integers are seen as float64 values). operator() is the reference: evaluated in float64 (or
// complex<double>, or int64 for the integer ops) by the portable path, so it
// is as exact as the C library. Vector(v) is the SIMD kernel, written once over
// the lane types of simd_lanes.h (16 or 8 f32 lanes) and compiled only in the
// files built for an instruction set (CANOPY_SIMD_LANES defined there).
#pragma once

#include <cmath>
#include <complex>
#include <type_traits>

#include "element_types.h"
#include "unary.h"

#ifdef CANOPY_SIMD_LANES
#include "simd_lanes.h"
#endif

namespace canopy::kernels {

struct ExpFn {
  static constexpr bool kComplex = true;
  explicit ExpFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return std::exp(x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Exp(x);
  }
#endif
};

// 1 / (1 + e^-x), and for x < 0 the same as e^x / (1 + e^x): e^-x would
// overflow below -88 (f32) and lose the subnormal results.
struct SigmoidFn {
  static constexpr bool kComplex = true;
  explicit SigmoidFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      return T(1) / (T(1) + std::exp(-x));
    } else {
      const T e = std::exp(-std::fabs(x));
      return x < 0 ? e / (T(1) + e) : T(1) / (T(1) + e);
    }
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    const V e = Exp(Neg(Abs(x)));
    const V s = Div(V::Set(1.0f), Add(V::Set(1.0f), e));
    return Select(IsNegative(x), Mul(e, s), s);
  }
#endif
};

struct TanhFn {
  explicit TanhFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return std::tanh(x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Tanh(x);
  }
#endif
};

// x > 0 ? x : 0, NaN kept (torch.relu); exact on integers.
struct ReluFn {
  static constexpr bool kIntegers = true;
  explicit ReluFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return x > T(0) || x != x ? x : T(0);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return MaxKeepNan(V::Set(0.0f), x);
  }
#endif
};

// |x|: the magnitude of a complex number (a complex with zero imaginary part:
// stored to a real dtype it keeps it); integers exact (the minimum wraps).
struct AbsFn {
  static constexpr bool kIntegers = true;
  static constexpr bool kComplex = true;
  explicit AbsFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      return T(std::abs(x));
    } else if constexpr (std::is_integral_v<T>) {
      return x < 0 ? Negate(x) : x;
    } else {
      return std::fabs(x);
    }
  }
  template <typename T>
  static T Negate(T x) {
    return static_cast<T>(std::make_unsigned_t<T>(0) - static_cast<std::make_unsigned_t<T>>(x));
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Abs(x);
  }
#endif
};

// -x; integers wrap as on the device (two's complement).
struct NegFn {
  static constexpr bool kIntegers = true;
  static constexpr bool kComplex = true;
  explicit NegFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return AbsFn::Negate(x);
    } else {
      return -x;
    }
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Neg(x);
  }
#endif
};

// sqrt (NaN below 0), sin, cos, log (NaN below 0, -inf at 0): the C library's
// float64 functions for reference, SLEEF's 1.0-ulp vector forms (sqrt: the
// exact instruction).
struct SqrtFn {
  static constexpr bool kComplex = true;
  explicit SqrtFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return std::sqrt(x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Sqrt(x);
  }
#endif
};

struct SinFn {
  static constexpr bool kComplex = true;
  explicit SinFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return std::sin(x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Sin(x);
  }
#endif
};

struct CosFn {
  static constexpr bool kComplex = true;
  explicit CosFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return std::cos(x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Cos(x);
  }
#endif
};

struct LogFn {
  static constexpr bool kComplex = true;
  explicit LogFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return std::log(x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Log(x);
  }
#endif
};

// x * sigmoid(x) (torch.nn.functional.silu).
struct SiluFn {
  explicit SiluFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return x * SigmoidFn(UnaryParams{})(x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Mul(x, SigmoidFn(UnaryParams{}).Vector(x));
  }
#endif
};

// x * clamp(x + 3, 0, 6) / 6 (torch.nn.functional.hardswish): 0 from -3 down, x from 3 up.
struct HardswishFn {
  explicit HardswishFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if (x > T(3)) return x;
    if (x <= T(-3)) return T(0);
    return x * (x + T(3)) / T(6);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    // NaN + 3 clamps to 0 (MaxKeepNan keeps its second operand) and NaN * 0 is NaN again.
    // Below -3 the result is 0 outright (-inf * 0 would be NaN).
    const V clamped = Min(MaxKeepNan(Add(x, V::Set(3.0f)), V::Set(0.0f)), V::Set(6.0f));
    const V middle = Select(IsGreater(V::Set(-3.0f), x), V::Set(0.0f), Div(Mul(x, clamped), V::Set(6.0f)));
    return Select(IsGreater(x, V::Set(3.0f)), x, middle);
  }
#endif
};

}  // namespace canopy::kernels
