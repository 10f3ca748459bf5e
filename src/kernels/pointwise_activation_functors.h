// Pointwise functors of the activations with more than one operand (part of
// the pointwise engine's table, binary_pointwise.h): Heaviside, PReLU,
// AddRelu, Shrink, the gated units whose halves the op layer passes as two
// views of one tensor (Glu, GeluMul, FatreluMul), and Renorm's scale factor.
#pragma once

#include <cmath>
#include <type_traits>

#include "binary_pointwise_functors.h"

namespace canopy::kernels {

// values where x is 0 (either sign), 1 above, 0 below and for NaN (torch.heaviside).
struct HeavisideFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T x, T values) const {
    if (x == T(0)) return values;
    return Truth<T>(x > T(0));
  }
};

// x above 0, else weight * x (torch.nn.functional.prelu); NaN stays NaN.
struct PreluFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T x, T weight) const {
    return x > T(0) || IsNan(x) ? x : weight * x;
  }
};

// relu(self + alpha * other) (torch's add_relu). Integers: the sum wraps in
// the dtype the op computes in, `width` bits wide (negative: unsigned, whose
// sums are never below 0 and skip the relu), before the relu sees it.
struct AddReluFn {
  static constexpr int kArity = 4;
  template <typename T>
  T operator()(T self, T other, T alpha, T width) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      const U sum = static_cast<U>(self) + static_cast<U>(alpha) * static_cast<U>(other);
      const auto bits = static_cast<int>(width < T(0) ? T(0) - width : width);
      const U mask = bits >= 64 ? ~U(0) : (U(1) << bits) - 1;
      if (width < T(0)) return static_cast<T>(sum & mask);
      const U sign = bits >= 64 ? U(1) << 63 : U(1) << (bits - 1);
      const U low = sum & mask;
      const T value = static_cast<T>((low & sign) != 0 ? low | ~mask : low);  // sign-extended from `bits`
      return value > T(0) ? value : T(0);
    } else {
      const T sum = self + alpha * other;
      return sum > T(0) || IsNan(sum) ? sum : T(0);
    }
  }
};

// x - bias above lambd, x + bias below -lambd, else 0 (ONNX Shrink; NaN
// compares false both ways and gives 0, as CANN's formula does).
struct ShrinkFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T x, T lambd, T bias) const {
    if (x > lambd) return x - bias;
    if (x < -lambd) return x + bias;
    return T(0);
  }
};

// a * sigmoid(b) (torch.nn.functional.glu: a the first half, b the second).
struct GluSigmoidFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return T(0);
    } else {
      const T e = std::exp(-std::abs(b));
      return a * (b < T(0) ? e / (T(1) + e) : T(1) / (T(1) + e));
    }
  }
};

// gelu(a) * b, gelu by erf or by its tanh approximation (GeluMul's approximate).
struct GeluErfMulFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    const double x = static_cast<double>(a);
    return Convert<T>(0.5 * x * std::erfc(-x * 0.70710678118654752440) * static_cast<double>(b));
  }
};

struct GeluTanhMulFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T a, T b) const {
    const double x = static_cast<double>(a);
    const double inner = 0.79788456080286535588 * (x + 0.044715 * x * x * x);
    return Convert<T>(0.5 * x * (1 + std::tanh(inner)) * static_cast<double>(b));
  }
};

// (a above threshold ? a : 0) * b (FatreluMul: a strict comparison, as CANN's kernel makes).
struct FatreluMulFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T a, T b, T threshold) const {
    return (a > threshold ? a : T(0)) * b;
  }
};

// The factor Renorm scales a slice by: maxnorm / (norm + 1e-7) where its norm
// exceeds maxnorm, else 1 (torch.renorm).
struct RenormFactorFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T norm, T maxnorm) const {
    if constexpr (std::is_integral_v<T>) {
      return T(1);
    } else {
      return norm > maxnorm ? maxnorm / (norm + T(1e-7)) : T(1);
    }
  }
};

}  // namespace canopy::kernels
