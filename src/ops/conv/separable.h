// Planning of the separable resampling kernel (kernels/separable_resample.h)
// over [N, C, H, W] views, shared by the adaptive pooling and the linear /
// bilinear / bicubic upsampling ops: they compute only their taps.
#pragma once

#include <cstdint>

#include "kernels/separable_resample.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

// out = the taps' weighted sum (or maximum) over dims 2 and 3 of `in`; both
// [N, C, H, W] views of any strides and float dtypes, out's H and W the
// numbers of row and column outputs.
void PlanSeparable(Plan& plan, const TensorRef& in, const TensorRef& out, kernels::AxisTaps rows,
                   kernels::AxisTaps columns, kernels::SeparableReduce reduce, const char* what);

// The same over dims 2, 3 and 4 of [N, C, D, H, W] views: H and W first into
// an f32 (f64 for f64) temporary, then D, each pass the separable kernel.
void PlanSeparable3d(Plan& plan, const TensorRef& in, const TensorRef& out, kernels::AxisTaps depths,
                     kernels::AxisTaps rows, kernels::AxisTaps columns, kernels::SeparableReduce reduce,
                     const char* what);

// PyTorch's area_pixel_compute_scale, in T (float for f32 and the 16-bit
// dtypes, double for f64, as its CPU kernels compute): (in - 1) / (out - 1)
// with align_corners (0 for one output), else 1 / scales when given (> 0),
// else in / out.
template <typename T>
T SourceScale(int64_t in, int64_t out, bool align_corners, double scales) {
  if (align_corners) return out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  return scales > 0 ? static_cast<T>(1.0 / scales) : static_cast<T>(in) / static_cast<T>(out);
}

// Linear interpolation's two taps per output index (one at the last input
// index), PyTorch's rule: source scale * i with align_corners, else
// max(scale * (i + 0.5) - 0.5, 0), computed in f64 or f32. An axis whose size
// does not change copies, whatever `scales` says.
kernels::AxisTaps LinearTaps(bool f64, int64_t in, int64_t out, bool align_corners, double scales);

// Adaptive pooling's window of output i of `out` over an axis of `in`
// (PyTorch's rule): [floor(i * in / out), ceil((i + 1) * in / out)).
kernels::AxisTaps AdaptiveWindows(int64_t in, int64_t out, bool average);

}  // namespace canopy::ops
