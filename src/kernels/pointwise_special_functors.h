// Pointwise functors of special functions and value tests (part of the
// pointwise engine's table, binary_pointwise.h): sinc, the inverse error
// function, digamma, log-gamma, the sign bit, NaN / infinity replacement and
// rounding to decimals. Each evaluates in double whatever the compute type (the
// op layer computes these ops in a floating type), so FLOAT results are
// correctly rounded up to the function's own error.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "binary_pointwise_functors.h"

namespace canopy::kernels {

// sin(pi x) / (pi x), 1 at 0 (torch.sinc); infinities give NaN, as sin does.
struct SincFn {
  static constexpr int kArity = 1;
  template <typename T>
  T operator()(T x) const {
    const double v = static_cast<double>(x);
    if (v == 0) return T(1);
    const double pi_x = 3.14159265358979323846 * v;
    return Convert<T>(std::sin(pi_x) / pi_x);
  }
};

// erf^-1(x): +-inf at +-1, NaN outside [-1, 1] (torch.erfinv). Giles' single
// precision approximation as the start, then two Newton steps on erf in double.
inline double Erfinv(double x) {
  if (std::isnan(x) || x < -1 || x > 1) return std::numeric_limits<double>::quiet_NaN();
  if (x == 1) return std::numeric_limits<double>::infinity();
  if (x == -1) return -std::numeric_limits<double>::infinity();
  double w = -std::log((1.0 - x) * (1.0 + x)), p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503, -0.00417768164,
                     0.246640727, 1.50140941}) {
      p = c + p * w;
    }
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682}) {
      p = c + p * w;
    }
  }
  double y = p * x;
  const double two_over_sqrt_pi = 1.12837916709551257390;
  for (int step = 0; step < 2; ++step) y -= (std::erf(y) - x) / (two_over_sqrt_pi * std::exp(-y * y));
  return y;
}

struct ErfinvFn {
  static constexpr int kArity = 1;
  template <typename T>
  T operator()(T x) const {
    return Convert<T>(Erfinv(static_cast<double>(x)));
  }
};

// The digamma function psi(x) = d/dx log Gamma(x), as torch.digamma defines
// its poles: -inf at +0 (+inf at -0), NaN at the negative integers. Negative
// arguments by reflection, small ones raised by the recurrence, then the
// asymptotic series.
inline double Digamma(double x) {
  constexpr double kPi = 3.14159265358979323846;
  if (x == 0) return std::copysign(std::numeric_limits<double>::infinity(), -x);
  if (x < 0) {
    // tan(pi x) is periodic: its argument is x's fractional part, exact, so
    // that pi x's rounding (up to |x| ulps) does not land near a pole.
    double whole = 0;
    const double fraction = std::modf(x, &whole);
    if (fraction == 0) return std::numeric_limits<double>::quiet_NaN();
    return Digamma(1 - x) - kPi / std::tan(kPi * fraction);
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  const double inv2 = 1 / (x * x);
  // Bernoulli terms: 1/12, 1/120, 1/252, 1/240, 1/132, 691/32760, 1/12.
  const double series =
      inv2 *
      (1.0 / 12 -
       inv2 * (1.0 / 120 -
               inv2 * (1.0 / 252 - inv2 * (1.0 / 240 - inv2 * (1.0 / 132 - inv2 * (691.0 / 32760 - inv2 / 12))))));
  return result + std::log(x) - 0.5 / x - series;
}

struct DigammaFn {
  static constexpr int kArity = 1;
  template <typename T>
  T operator()(T x) const {
    return Convert<T>(Digamma(static_cast<double>(x)));
  }
};

// log |Gamma(x)| (std::lgamma; +inf at the poles). lgamma_r: std::lgamma
// writes the global signgam, a data race between threads.
struct LgammaFn {
  static constexpr int kArity = 1;
  template <typename T>
  T operator()(T x) const {
    int sign = 0;
    return Convert<T>(::lgamma_r(static_cast<double>(x), &sign));
  }
};

// 1 where x < 0, else 0: CANN's Atlas A2 path compares with 0, so -0.0 and
// every NaN give 0 and unsigned values never have it.
struct SignbitFn {
  static constexpr int kArity = 1;
  template <typename T>
  T operator()(T x) const {
    return Truth<T>(x < T(0));
  }
};

// NaN, +inf and -inf replaced by the given values (torch.nan_to_num with the
// values stated); every other value, and integers, unchanged.
struct NanToNumFn {
  static constexpr int kArity = 4;
  template <typename T>
  T operator()(T x, T nan, T posinf, T neginf) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return nan;
      if (std::isinf(x)) return x > 0 ? posinf : neginf;
    }
    return x;
  }
};

// x rounded half to even at `decimals` decimal digits (torch.round with
// decimals): rint(x * 10^d) / 10^d, or rint(x / 10^-d) * 10^-d for d < 0.
// Integers: d >= 0 leaves them, d < 0 rounds them to a multiple of 10^-d.
struct RoundDecimalsFn {
  static constexpr int kArity = 2;
  template <typename T>
  T operator()(T x, T decimals) const {
    if constexpr (std::is_integral_v<T>) {
      const auto d = static_cast<int64_t>(decimals);
      if (d >= 0) return x;
      // Exact on int64: the quotient by 10^-d rounded half to even, times 10^-d
      // (a power past int64's range rounds everything to 0).
      if (d < -18) return T(0);
      T scale = 1;
      for (int64_t k = 0; k < -d; ++k) scale *= 10;
      T quotient = x / scale;
      const T remainder = x % scale;
      using U = std::make_unsigned_t<T>;
      const U twice = static_cast<U>(remainder < 0 ? U(0) - static_cast<U>(remainder) : static_cast<U>(remainder)) * 2;
      if (twice > static_cast<U>(scale) || (twice == static_cast<U>(scale) && quotient % 2 != 0)) {
        quotient += remainder < 0 ? T(-1) : T(1);
      }
      return static_cast<T>(static_cast<U>(quotient) * static_cast<U>(scale));
    } else {
      // Past +-400 digits 10^d is infinite in double either way; clamping first keeps the
      // conversion to int64 defined for any decimals (INT64_MAX arrives here as 2^63).
      const auto d = static_cast<int64_t>(std::clamp(static_cast<double>(decimals), -400.0, 400.0));
      if (d == 0) return std::nearbyint(x);
      const T scale = static_cast<T>(std::pow(10.0, static_cast<double>(d < 0 ? -d : d)));
      return d > 0 ? std::nearbyint(x * scale) / scale : std::nearbyint(x / scale) * scale;
    }
  }
};

}  // namespace canopy::kernels
