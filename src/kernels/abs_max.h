// The running largest magnitude of a row's dynamic quantisation, NaN once any
// value is NaN: the NPU's ReduceMax keeps NaN, so a row holding one gets a
// NaN scale (and zeros), where std::max(max, |v|) dropped it.
#pragma once

#include <cmath>

namespace canopy::kernels {

inline float AbsMaxKeepingNan(float max, float v) {
  const float a = std::abs(v);
  if (std::isnan(max)) return max;
  return std::isnan(a) || a > max ? a : max;
}

}  // namespace canopy::kernels
