// Small helpers the normalisation suites share: values as doubles, expected values with a
// roundoff tolerance relative to the terms' size, and optional tensors as arguments.
#ifndef CANOPY_TESTS_OPS_NORM_TEST_SUPPORT_H_
#define CANOPY_TESTS_OPS_NORM_TEST_SUPPORT_H_

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "op_test_support.h"

namespace canopy_test {

inline std::vector<double> Reals(const Values& v) {
  std::vector<double> out;
  out.reserve(v.size());
  for (const Value& x : v) out.push_back(x.real());
  return out;
}

// values rounded to `dtype`, each within `ulps` of its roundoff relative to |value| + scale (a NaN exactly).
inline Expected Within(const std::vector<double>& values, double scale, aclDataType dtype, double ulps) {
  Expected want;
  const double u = std::max(UnitRoundoff(dtype), 0x1p-24);
  for (const double v : values) {
    want.values.emplace_back(ConvertValue(v, dtype));
    want.tolerance.push_back(std::isnan(v) ? 0 : ulps * u * (std::abs(v) + scale) + 1e-6);
  }
  return want;
}

// RmsNorm(a + b) * g (+ beta) per row of g's length, in float64, and the sum a + b into `sum`.
inline std::vector<double> AddRmsNormRef(const std::vector<double>& a, const std::vector<double>& b,
                                         const std::vector<double>& g, const std::vector<double>* beta, double epsilon,
                                         std::vector<double>& sum) {
  const size_t length = g.size();
  sum.resize(a.size());
  for (size_t i = 0; i < a.size(); ++i) sum[i] = a[i] + b[i];
  std::vector<double> y;
  for (size_t r = 0; r < a.size() / length; ++r) {
    double squares = 0;
    for (size_t j = 0; j < length; ++j) squares += sum[r * length + j] * sum[r * length + j];
    const double rstd = 1 / std::sqrt(squares / static_cast<double>(length) + epsilon);
    for (size_t j = 0; j < length; ++j) y.push_back(sum[r * length + j] * rstd * g[j] + (beta ? (*beta)[j] : 0.0));
  }
  return y;
}

// LayerNorm of each row of `length` values, times g plus b (g and b of `length`), in float64.
inline std::vector<double> LayerNormRef(const std::vector<double>& x, size_t length, const std::vector<double>& g,
                                        const std::vector<double>& b, double epsilon) {
  std::vector<double> y;
  y.reserve(x.size());
  for (size_t r = 0; r < x.size() / length; ++r) {
    const double* row = &x[r * length];
    double mean = 0, var = 0;
    for (size_t j = 0; j < length; ++j) mean += row[j];
    mean /= static_cast<double>(length);
    for (size_t j = 0; j < length; ++j) var += (row[j] - mean) * (row[j] - mean);
    const double rstd = 1 / std::sqrt(var / static_cast<double>(length) + epsilon);
    for (size_t j = 0; j < length; ++j) y.push_back((row[j] - mean) * rstd * g[j] + b[j]);
  }
  return y;
}

// round(y / scale + zp) or round(y * scale + zp), saturated to INT8; one unit off allowed where the
// kernel's f32 value may sit on the other side of a rounding boundary.
inline Expected ColumnQuant(const std::vector<double>& y, int64_t length, bool divMode,
                            const std::vector<double>& scale, const std::vector<double>* zeroPoint) {
  Expected want;
  for (size_t i = 0; i < y.size(); ++i) {
    const size_t j = scale.size() == 1 ? 0 : i % static_cast<size_t>(length);
    const double q = (divMode ? y[i] / scale[j] : y[i] * scale[j]) + (zeroPoint != nullptr ? (*zeroPoint)[j] : 0.0);
    want.values.emplace_back(std::clamp(std::nearbyint(q), -128.0, 127.0));
    want.tolerance.push_back(std::abs(std::abs(q - std::trunc(q)) - 0.5) < 1e-3 ? 1 : 0);
  }
  return want;
}

// Quantised values q as the kernels that cast through half produce them (LayerNormQuant,
// GroupNormSiluQuant): q rounded to f16, rounded half to even, saturated to INT8; one unit off
// allowed near a rounding boundary, where the kernel's f32 (and then f16) value may sit on the other side.
inline Expected ThroughHalfQuant(const std::vector<double>& q) {
  Expected want;
  for (const double v : q) {
    want.values.emplace_back(std::clamp(std::nearbyint(ConvertValue(v, ACL_FLOAT16).real()), -128.0, 127.0));
    want.tolerance.push_back(std::abs(std::abs(v - std::trunc(v)) - 0.5) < 0.05 ? 1 : 0);
  }
  return want;
}

// The descriptor of an optional tensor, or null.
inline aclTensor* Or(OpArgs& args, const std::optional<DeviceTensor>& t) { return t ? args.Tensor(*t) : nullptr; }

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_NORM_TEST_SUPPORT_H_
