// The unary functor table: one struct per op, constructed from its
// UnaryParams. operator() is the reference: evaluated in float64 (or
// complex<double>, or int64 for the integer ops) by the portable path, so it
// is as exact as the C library. Vector(v) is the SIMD kernel, written once over
// the lane types of simd_lanes.h (16 or 8 f32 lanes) and compiled only in the
// files built for an instruction set (CANOPY_SIMD_LANES defined there).
#pragma once

#include <cmath>
#include <complex>

#include "element_types.h"
#include "unary.h"

#ifdef CANOPY_SIMD_LANES
#include "simd_lanes.h"
#endif

namespace canopy::kernels {

struct ExpFn {
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

}  // namespace canopy::kernels
