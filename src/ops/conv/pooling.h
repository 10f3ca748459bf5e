// 2-D pooling on the shared oneDNN step: the output-size rule CANN and PyTorch
// share (ceil mode and its last-window rule), and the planning of one oneDNN
// pooling primitive over an [N, C, H, W] view, for AvgPool2d and MaxPool.
#pragma once

#include <array>
#include <cstdint>

#include "ops/framework/plan.h"

namespace canopy::ops {

// One spatial axis of a pooling window.
struct PoolAxis {
  int64_t kernel = 1;
  int64_t stride = 1;
  int64_t pad_front = 0;
  int64_t pad_back = 0;
};

// floor (or ceil) of (in + pads - kernel) / stride, plus 1; in ceil mode a
// last window that would start in the back padding or beyond is dropped.
// 0 when the padded input is shorter than the window.
int64_t PooledExtent(int64_t in, const PoolAxis& axis, bool ceil_mode);

enum class PoolKind {
  kMax,
  kAverageOverWindow,  // sum / kernel area, padding counted
  kAverageOverInput,   // sum / elements of the window inside the input
};

// Plans out = pool(in) over dims 2 and 3 of [N, C, H, W] views (any strides,
// f32 / f16 / bf16), out's H and W given. `scale` multiplies each result (a
// divisor override). ACLNN_ERR_INNER when oneDNN has no implementation.
aclnnStatus PlanPool2d(Plan& plan, const TensorRef& in, const TensorRef& out, PoolKind kind,
                       const std::array<PoolAxis, 2>& axes, float scale = 1.0f);

}  // namespace canopy::ops
