// The 2-norm of values whose squares may under- or overflow double (LAPACK's
// dnrm2 / dznrm2 / dlapy3): the parts are divided by the largest magnitude
// before they are squared, so 1e-200 and 1e200 entries give their exact norm
// instead of 0 or inf. The linear-algebra ops (QR, SVD) take their column
// norms from here.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <initializer_list>

namespace canopy::ops {

inline double RealPart(double x) { return x; }
inline double RealPart(std::complex<double> x) { return x.real(); }
inline double ImagPart(double) { return 0.0; }
inline double ImagPart(std::complex<double> x) { return x.imag(); }

// sqrt(sum parts^2); the largest magnitude when it is 0, inf or NaN.
inline double ScaledNorm(std::initializer_list<double> parts) {
  double largest = 0;
  for (double x : parts) largest = std::isnan(x) ? x : std::max(largest, std::fabs(x));
  if (largest == 0 || !std::isfinite(largest)) return largest;
  double sum = 0;
  for (double x : parts) sum += (x / largest) * (x / largest);
  return largest * std::sqrt(sum);
}

// sqrt(sum |x[i * stride]|^2) over `count` real or complex values.
template <typename T>
double ScaledNorm(const T* x, size_t count, size_t stride = 1) {
  double largest = 0;
  for (size_t i = 0; i < count; ++i) {
    for (double part : {RealPart(x[i * stride]), ImagPart(x[i * stride])}) {
      largest = std::isnan(part) ? part : std::max(largest, std::fabs(part));
    }
  }
  if (largest == 0 || !std::isfinite(largest)) return largest;
  double sum = 0;
  for (size_t i = 0; i < count; ++i) sum += std::norm(x[i * stride] / largest);
  return largest * std::sqrt(sum);
}

}  // namespace canopy::ops
