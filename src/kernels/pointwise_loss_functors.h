// Pointwise functors of the loss functions (part of the pointwise engine's
// table, binary_pointwise.h): the per-element loss, which the op layer then
// keeps (reduction none) or reduces to a mean or sum (ops/nn/loss.h). Only
// L1 and MSE take integers; the others compute in a floating type.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "binary_pointwise_functors.h"

namespace canopy::kernels {

// self - target; integers wrap in two's complement (no undefined overflow).
template <typename T>
T Difference(T self, T target) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(self) - static_cast<U>(target));
  } else {
    return self - target;
  }
}

// |self - target| (torch l1_loss); integers exact, wrapping past their range.
struct L1LossFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T self, T target) const {
    const T d = Difference(self, target);
    return d < T(0) ? Difference(T(0), d) : d;
  }
};

// (self - target)^2 (torch mse_loss).
struct MseLossFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T self, T target) const {
    const T d = self - target;
    return d * d;
  }
};

// 0.5 d^2 / beta below beta, |d| - beta / 2 above (torch smooth_l1_loss; beta 0 is |d|).
struct SmoothL1LossFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T self, T target, T beta) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      const T d = std::abs(self - target);
      return d < beta ? T(0.5) * d * d / beta : d - T(0.5) * beta;
    }
  }
};

// log(1 + exp(-target * self)) in its stable form (torch soft_margin_loss).
struct SoftMarginLossFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T self, T target) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      const T z = -target * self;
      return std::max(z, T(0)) + std::log1p(std::exp(-std::abs(z)));
    }
  }
};

// -weight (y log x + (1 - y) log(1 - x)), each log clamped at -100 (torch binary_cross_entropy).
struct BinaryCrossEntropyFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T x, T y, T weight) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      const T log_x = std::max(std::log(x), T(-100));
      const T log_not_x = std::max(std::log(T(1) - x), T(-100));
      return -weight * (y * log_x + (T(1) - y) * log_not_x);
    }
  }
};

// weight ((1 - y) x - (1 + (posWeight - 1) y) log sigmoid(x)), log sigmoid(x)
// = min(x, 0) - log1p(exp(-|x|)) (torch binary_cross_entropy_with_logits).
struct BceWithLogitsFn {
  static constexpr int kArity = 4;
  template <typename T>
  T operator()(T x, T y, T weight, T pos_weight) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      const T log_sigmoid = std::min(x, T(0)) - std::log1p(std::exp(-std::abs(x)));
      return weight * ((T(1) - y) * x - (T(1) + (pos_weight - T(1)) * y) * log_sigmoid);
    }
  }
};

// target (log target - self), 0 where target is 0 (torch kl_div), and
// exp(target) (target - self) for a log target.
struct KlDivFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T self, T target) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      return target * (std::log(target == T(0) ? T(1) : target) - self);
    }
  }
};

struct KlDivLogTargetFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T self, T target) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      return std::exp(target) * (target - self);
    }
  }
};

// max(0, 1 - target * predict) (CANN's HingeLoss).
struct HingeLossFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T predict, T target) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      return std::max(T(1) - target * predict, T(0));
    }
  }
};

// input where target is 1, max(0, margin - input) where it is -1, blended as CANN's kernel does for
// other targets: n + (input - n) (target + 1) / 2 with n = max(0, margin - input).
struct HingeEmbeddingLossFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T input, T target, T margin) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      const T negative = std::max(margin - input, T(0));
      return negative + (input - negative) * ((target + T(1)) * T(0.5));
    }
  }
};

// With e = predictions - targets: 0.5 e^2 up to |e| = delta, delta (|e| - delta / 2) beyond (CANN's HuberLoss).
struct HuberLossFn {
  static constexpr int kArity = 3;
  template <typename T>
  T operator()(T predictions, T targets, T delta) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      const T e = std::abs(predictions - targets);
      return e <= delta ? T(0.5) * e * e : delta * (e - T(0.5) * delta);
    }
  }
};

// 0.5 (log v + (input - target)^2 / v), v = max(var, eps) (torch gaussian_nll_loss); the Full form
// adds the constant 0.5 log(2 pi).
struct GaussianNllLossFn {
  static constexpr int kArity = 4;
  template <typename T>
  T operator()(T input, T target, T var, T eps) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      const T v = var < eps ? eps : var;
      const T d = input - target;
      return T(0.5) * (std::log(v) + d * d / v);
    }
  }
};

struct GaussianNllLossFullFn {
  static constexpr int kArity = 4;
  template <typename T>
  T operator()(T input, T target, T var, T eps) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      constexpr double kHalfLogTwoPi = 0.91893853320467274178;
      return GaussianNllLossFn{}(input, target, var, eps) + T(kHalfLogTwoPi);
    }
  }
};

// log(z / (1 - z)), z = x clamped into [eps, 1 - eps] when eps >= 0 (torch.logit;
// both bounds test the original x, so below eps gives eps even past 1 - eps, as
// CANN's kernel masks them); NaN stays NaN.
struct LogitFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T x, T eps) const {
    if constexpr (std::is_integral_v<T>) {  // phase 1 computes these in a floating type
      return T(0);
    } else {
      T z = x;
      if (eps >= T(0)) {
        if (x > T(1) - eps) z = T(1) - eps;
        if (x < eps) z = eps;
      }
      return std::log(z / (T(1) - z));
    }
  }
};

}  // namespace canopy::kernels
