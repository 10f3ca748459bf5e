// The unary functor table: one struct per op, constructed from its
// UnaryParams. kComplex / kIntegers: defined on complex numbers / exact on
// integers (else integers are seen as float64 values). kUlps (where given):
// the error bound of the vector kernel, from unary_accuracy.h (which says what
// it is relative to); the tests check each op against it. operator() is the reference: evaluated in float64 (or
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
#include "unary_accuracy.h"

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

#if defined(CANOPY_SIMD_LANES) && defined(__AVX512F__)
// sigmoid(z) in about half the instructions of SLEEF's expf and a division
// (vdivps alone takes 10 cycles a register): e^-|z| as 2^n p(r) with n =
// round(-|z| log2 e) by the 1.5 * 2^23 shifter, r = -|z| - n ln 2 in two steps
// (Cody and Waite), p the degree-7 Taylor polynomial (truncation below 6e-9 on
// |r| <= ln 2 / 2) and vscalefps (gradual underflow; -|z| is clamped at -104,
// where e^-|z| is 0 in f32, so -inf needs no case); about 1 ulp. Then
// 1 / (1 + e) (e / (1 + e) for z < 0) from vrcp14 and one Newton step, under
// 1 ulp. NaN stays NaN.
inline __m512 SigmoidAvx512(__m512 z) {
  // -|z|, at least -104 (vmaxps returns its second operand, NaN, where z is NaN).
  const __m512 a =
      _mm512_max_ps(_mm512_set1_ps(-104.0f),
                    _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(z), _mm512_set1_epi32(INT32_MIN))));
  const __m512 shifter = _mm512_set1_ps(0x1.8p23f);
  const __m512 n = _mm512_sub_ps(_mm512_fmadd_ps(a, _mm512_set1_ps(1.44269504088896341f), shifter), shifter);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693145751953125f), a);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(1.42860682030941723212e-6f), r);
  __m512 p = _mm512_set1_ps(1.0f / 5040);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 720));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  const __m512 e = _mm512_scalef_ps(p, n);
  const __m512 d = _mm512_add_ps(_mm512_set1_ps(1.0f), e);
  const __m512 estimate = _mm512_maskz_rcp14_ps(0xffff, d);  // maskz: GCC 12's PR105593, as simd_lanes.h
  const __m512 s = _mm512_fmadd_ps(estimate, _mm512_fnmadd_ps(d, estimate, _mm512_set1_ps(1.0f)), estimate);
  const __mmask16 negative = _mm512_cmp_ps_mask(z, _mm512_setzero_ps(), _CMP_LT_OQ);
  return _mm512_mask_mul_ps(s, negative, e, s);
}
#endif

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

// x * sigmoid(beta * x) (Swish; FastGelu is beta 1.702). a: beta.
struct SwishFn {
  static constexpr double kUlps = unary_accuracy::kSwish;
  explicit SwishFn(const UnaryParams& p) : beta_(p.a) {}
  template <typename T>
  T operator()(T x) const {
    return x * SigmoidFn(UnaryParams{})(T(beta_) * x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Mul(x, SigmoidFn(UnaryParams{}).Vector(Mul(V::Set(static_cast<float>(beta_)), x)));
  }
#endif
  double beta_;
};

// max(x, 0) squared (SquaredRelu); NaN stays NaN.
struct SquaredReluFn {
  static constexpr double kUlps = unary_accuracy::kSquaredRelu;
  explicit SquaredReluFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    const T r = x > T(0) || x != x ? x : T(0);
    return r * r;
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    const V r = MaxKeepNan(V::Set(0.0f), x);
    return Mul(r, r);
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

// (x > 0) - (x < 0), as CANN's kernel computes it (torch.sign): NaN and -0
// give +0; bool stays bool, integers exact. Complex: x / |x| (torch.sgn), 0 at 0.
struct SignFn {
  static constexpr bool kIntegers = true;
  static constexpr bool kComplex = true;
  static constexpr double kUlps = unary_accuracy::kSign;
  explicit SignFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      const auto magnitude = std::abs(x);
      return magnitude == 0 ? T(0) : x / magnitude;
    } else {
      return static_cast<T>(static_cast<int>(x > T(0)) - static_cast<int>(x < T(0)));
    }
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    const V zero = V::Set(0.0f), one = V::Set(1.0f);
    return Sub(Select(IsGreater(x, zero), one, zero), Select(IsNegative(x), one, zero));
  }
#endif
};

// clamp(x / 6 + 1/2, 0, 1) (torch.nn.functional.hardsigmoid); NaN stays NaN.
// An integer self computes in float and truncates (CANN: INT32 gives 0 or 1).
struct HardsigmoidFn {
  static constexpr double kUlps = unary_accuracy::kHardsigmoid;
  explicit HardsigmoidFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    if (x >= T(3)) return T(1);
    if (x <= T(-3)) return T(0);
    return x / T(6) + T(0.5);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    // MaxKeepNan and Min keep their second operand where it is NaN.
    const V linear = Add(Div(x, V::Set(6.0f)), V::Set(0.5f));
    return Min(V::Set(1.0f), MaxKeepNan(V::Set(0.0f), linear));
  }
#endif
};

// x > 0 ? x : negativeSlope * x (torch.nn.functional.leaky_relu). a: the slope.
struct LeakyReluFn {
  static constexpr double kUlps = unary_accuracy::kLeakyRelu;
  explicit LeakyReluFn(const UnaryParams& p) : slope_(p.a) {}
  template <typename T>
  T operator()(T x) const {
    return x > T(0) ? x : x * T(slope_);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Select(IsGreater(x, V::Set(0.0f)), x, Mul(x, V::Set(static_cast<float>(slope_))));
  }
#endif
  double slope_;
};

// log(1 + e^(beta x)) / beta, and x itself where beta x > threshold
// (torch.nn.functional.softplus). a: beta, b: threshold. Evaluated as
// (max(y, 0) + log1p(e^-|y|)) / beta with y = beta x, which neither overflows
// for a large threshold nor loses the small results far below 0.
struct SoftplusFn {
  static constexpr double kUlps = unary_accuracy::kSoftplus;
  explicit SoftplusFn(const UnaryParams& p) : beta_(p.a), threshold_(p.b) {}
  template <typename T>
  T operator()(T x) const {
    const T y = T(beta_) * x;
    if (y > T(threshold_)) return x;
    return ((y > T(0) ? y : T(0)) + std::log1p(std::exp(-std::fabs(y)))) / T(beta_);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    const V beta = V::Set(static_cast<float>(beta_));
    const V y = Mul(beta, x);
    const V soft = Div(Add(MaxKeepNan(V::Set(0.0f), y), Log1p(Exp(Neg(Abs(y))))), beta);
    return Select(IsGreater(y, V::Set(static_cast<float>(threshold_))), x, soft);
  }
#endif
  double beta_, threshold_;
};

// scale x for x > 0, else alpha scale (e^(x inputScale) - 1) (CANN's Elu;
// torch.nn.functional.elu with scale = inputScale = 1). a: alpha, b: scale,
// c: inputScale. expm1 keeps the small results near 0.
struct EluFn {
  static constexpr double kUlps = unary_accuracy::kElu;
  explicit EluFn(const UnaryParams& p) : alpha_(p.a), scale_(p.b), input_scale_(p.c) {}
  template <typename T>
  T operator()(T x) const {
    return x > T(0) ? T(scale_) * x : T(alpha_ * scale_) * std::expm1(x * T(input_scale_));
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    const V negative =
        Mul(V::Set(static_cast<float>(alpha_ * scale_)), Expm1(Mul(x, V::Set(static_cast<float>(input_scale_)))));
    return Select(IsGreater(x, V::Set(0.0f)), Mul(V::Set(static_cast<float>(scale_)), x), negative);
  }
#endif
  double alpha_, scale_, input_scale_;
};

// GELU, tanh approximation (torch.nn.functional.gelu(approximate='tanh')):
// x / 2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), evaluated as
// x sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)): the same function without the
// cancellation in 1 + tanh for negative x.
struct GeluTanhFn {
  static constexpr double kUlps = unary_accuracy::kGeluTanh;
  static constexpr double kTwiceSqrtTwoOverPi = 1.5957691216057308;
  static constexpr double kCubic = 0.044715;
  explicit GeluTanhFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return x * SigmoidFn(UnaryParams{})(T(kTwiceSqrtTwoOverPi) * (x + T(kCubic) * x * x * x));
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
#if defined(__AVX512F__)
    if constexpr (V::kLanes == 16) return {Avx512(x.v)};
#endif
    const V cubic = Mul(V::Set(static_cast<float>(kCubic)), Mul(Mul(x, x), x));
    const V z = Mul(V::Set(static_cast<float>(kTwiceSqrtTwoOverPi)), Add(x, cubic));
    return Mul(x, SigmoidFn(UnaryParams{}).Vector(z));
  }
#if defined(__AVX512F__)
  // The same function with the cheaper sigmoid (SigmoidAvx512): z = x (c + c k
  // x^2), three roundings. Within kGeluTanh (harness_unary_test checks f32,
  // fp16, bf16).
  static __m512 Avx512(__m512 x) {
    const auto c = static_cast<float>(kTwiceSqrtTwoOverPi);
    const __m512 w = _mm512_fmadd_ps(
        _mm512_mul_ps(x, x), _mm512_set1_ps(static_cast<float>(kTwiceSqrtTwoOverPi * kCubic)), _mm512_set1_ps(c));
    return _mm512_mul_ps(x, SigmoidAvx512(_mm512_mul_ps(x, w)));
  }
#endif
#endif
};

// GELU, exact (torch.nn.functional.gelu(approximate='none')): x Phi(x) with
// Phi the standard normal CDF, evaluated as x / 2 erfc(-x / sqrt 2) (1 +
// erf(x / sqrt 2) would cancel for negative x).
struct GeluErfFn {
  static constexpr double kUlps = unary_accuracy::kGeluErf;
  static constexpr double kMinusInvSqrtTwo = -0.70710678118654752;
  explicit GeluErfFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return T(0.5) * x * std::erfc(T(kMinusInvSqrtTwo) * x);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Mul(Mul(V::Set(0.5f), x), Erfc(Mul(V::Set(static_cast<float>(kMinusInvSqrtTwo)), x)));
  }
#endif
};

// x > threshold ? x : value (CANN's Threshold: NaN is not greater, so it gives
// value). a, b: threshold and value already in self's dtype (phase 1 converts
// them, as CANN does); a_integer, b_integer the same for integer tensors.
struct ThresholdFn {
  static constexpr bool kIntegers = true;
  static constexpr double kUlps = unary_accuracy::kThreshold;
  explicit ThresholdFn(const UnaryParams& p) : params_(p) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return x > T(params_.a_integer) ? x : T(params_.b_integer);
    } else {
      return x > T(params_.a) ? x : T(params_.b);
    }
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Select(IsGreater(x, V::Set(static_cast<float>(params_.a))), x, V::Set(static_cast<float>(params_.b)));
  }
#endif
  UnaryParams params_;
};

// x == 0 ? 1 : 0 (torch.logical_not): the value stored to out's dtype (bool
// or any other); NaN is non-zero.
struct LogicalNotFn {
  static constexpr bool kIntegers = true;
  static constexpr double kUlps = unary_accuracy::kLogicalNot;
  explicit LogicalNotFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return x == T(0) ? T(1) : T(0);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    return Select(IsEqual(x, V::Set(0.0f)), V::Set(1.0f), V::Set(0.0f));
  }
#endif
};

// min(max(x, lo), hi) (torch.nn.functional.hardtanh; CANN's ClipByValueV2),
// NaN kept. a, b: clipValueMin and clipValueMax already in self's dtype
// (phase 1 converts them, as CANN does; lo <= hi is checked there);
// a_integer, b_integer the same for integer tensors, which clamp exactly.
struct HardtanhFn {
  static constexpr bool kIntegers = true;
  static constexpr double kUlps = unary_accuracy::kHardtanh;
  explicit HardtanhFn(const UnaryParams& p) : params_(p) {}
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      const T lo = T(params_.a_integer), hi = T(params_.b_integer);
      return x < lo ? lo : (x > hi ? hi : x);
    } else {
      if (x != x) return x;
      return x < T(params_.a) ? T(params_.a) : (x > T(params_.b) ? T(params_.b) : x);
    }
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    // MaxKeepNan and Min keep their second operand where it is NaN.
    return Min(V::Set(static_cast<float>(params_.b)), MaxKeepNan(V::Set(static_cast<float>(params_.a)), x));
  }
#endif
  UnaryParams params_;
};

// x tanh(softplus(x)) (torch.nn.functional.mish). The vector kernel uses
// tanh(log(1 + n)) = m / (m + 2) with n = e^x, m = n (n + 2): one exp, and no
// cancellation for negative x; from x = 20 on the quotient is 1 in f32 (and m
// would overflow from 44 on), so the result is x.
struct MishFn {
  static constexpr double kUlps = unary_accuracy::kMish;
  explicit MishFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return x * std::tanh(std::log1p(std::exp(x)));
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    const V n = Exp(x);
    const V m = Mul(n, Add(n, V::Set(2.0f)));
    const V mish = Mul(x, Div(m, Add(m, V::Set(2.0f))));
    return Select(IsGreater(x, V::Set(20.0f)), x, mish);
  }
#endif
};

// log(sigmoid(x)) (torch.nn.functional.logsigmoid), evaluated as
// min(x, 0) - log1p(e^-|x|): no overflow of e^-x, exact tails.
struct LogSigmoidFn {
  static constexpr double kUlps = unary_accuracy::kLogSigmoid;
  explicit LogSigmoidFn(const UnaryParams&) {}
  template <typename T>
  T operator()(T x) const {
    return (x < T(0) ? x : T(0)) - std::log1p(std::exp(-std::fabs(x)));
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    // Min keeps its second operand (x) where it is NaN.
    return Sub(Min(V::Set(0.0f), x), Log1p(Exp(Neg(Abs(x)))));
  }
#endif
};

// |x| <= lambd ? 0 : x (torch.nn.functional.hardshrink; CANN's kernel: NaN
// and the infinities pass through). a: lambd as a FLOAT, a negative one
// taken as 0 (CANN's op layer does so).
struct HardshrinkFn {
  static constexpr double kUlps = unary_accuracy::kHardshrink;
  explicit HardshrinkFn(const UnaryParams& p) : lambd_(p.a) {}
  template <typename T>
  T operator()(T x) const {
    return std::fabs(x) <= T(lambd_) ? T(0) : x;
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    // |x| <= lambd gives 0: false for a NaN x or a NaN lambd, which pass x through.
    if (std::isnan(lambd_)) return x;
    const V zero_or_nan = Select(IsEqual(x, x), V::Set(0.0f), x);
    return Select(IsGreater(Abs(x), V::Set(static_cast<float>(lambd_))), x, zero_or_nan);
  }
#endif
  double lambd_;
};

// x - lambd above lambd, x + lambd below -lambd, else 0 (torch.nn.functional.
// softshrink, CANN's formula: NaN compares false both ways and gives 0).
// a: lambd (>= 0, checked in phase 1) as a FLOAT.
struct SoftshrinkFn {
  static constexpr double kUlps = unary_accuracy::kSoftshrink;
  explicit SoftshrinkFn(const UnaryParams& p) : lambd_(p.a) {}
  template <typename T>
  T operator()(T x) const {
    const T lambd = T(lambd_);
    if (x > lambd) return x - lambd;
    if (x < -lambd) return x + lambd;
    return T(0);
  }
#ifdef CANOPY_SIMD_LANES
  template <typename V>
  V Vector(V x) const {
    const V lambd = V::Set(static_cast<float>(lambd_));
    const V below = Select(IsGreater(Neg(lambd), x), Add(x, lambd), V::Set(0.0f));
    return Select(IsGreater(x, lambd), Sub(x, lambd), below);
  }
#endif
  double lambd_;
};

}  // namespace canopy::kernels

#include "unary_math_functors.h"  // the elementary functions: the rest of the table
