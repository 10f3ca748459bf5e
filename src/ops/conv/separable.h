// Planning of the separable resampling kernel (kernels/separable_resample.h)
// over [N, C, H, W] views, shared by the adaptive pooling and the linear /
// bilinear / bicubic upsampling ops: they compute only their taps.
#pragma once

#include "kernels/separable_resample.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

// out = the taps' weighted sum (or maximum) over dims 2 and 3 of `in`; both
// [N, C, H, W] views of any strides and float dtypes, out's H and W the
// numbers of row and column outputs.
void PlanSeparable(Plan& plan, const TensorRef& in, const TensorRef& out, kernels::AxisTaps rows,
                   kernels::AxisTaps columns, kernels::SeparableReduce reduce, const char* what);

// Adaptive pooling's window of output i of `out` over an axis of `in`
// (PyTorch's rule): [floor(i * in / out), ceil((i + 1) * in / out)).
kernels::AxisTaps AdaptiveWindows(int64_t in, int64_t out, bool average);

}  // namespace canopy::ops
