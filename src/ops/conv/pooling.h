// Pooling shared by the pooling ops: the output-size rule CANN and PyTorch
// share (ceil mode and its last-window rule), one oneDNN pooling primitive
// over an [N, C, H, W] or [N, C, D, H, W] view (AvgPool2d/3d), and max
// pooling with indices on Canopy's own kernel (the *WithIndices, *WithArgmax
// and adaptive max ops).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/max_pool_indices.h"
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

// Average pooling's divisors (max pooling has kernels of its own: max_pool2d.h, max_pool_indices.h).
enum class PoolKind {
  kAverageOverWindow,  // sum / kernel area, padding counted
  kAverageOverInput,   // sum / elements of the window inside the input
};

// Plans out = pool(in) over dims 2.. of [N, C, H, W] or [N, C, D, H, W]
// views (any strides, f32 / f16 / bf16; one axis per spatial dim), out's
// spatial extents given. `scale` multiplies each result (a divisor override).
// ACLNN_ERR_INNER when oneDNN has no implementation.
aclnnStatus PlanPool(Plan& plan, const TensorRef& in, const TensorRef& out, PoolKind kind,
                     const std::vector<PoolAxis>& axes, float scale = 1.0f);

// torch avg_pool2d/3d over the spatial dims of [N, C, (D,) H, W] views:
// a divisor override divides every window's sum by it; else countIncludePad
// counts the padding but not a ceil-mode window's part beyond it (a
// zero-padded copy is pooled then), or only the input elements.
aclnnStatus PlanAvgPool(Plan& plan, const TensorRef& in, const TensorRef& out, const std::vector<PoolAxis>& axes,
                        bool count_include_pad, int64_t divisor_override);

// The windows of a fixed-size pool along one axis, one per output index,
// clipped to the input: output i covers i * stride - pad_front + j * dilation
// for j < kernel. Every window must hold an input element (the op's checks).
std::vector<kernels::PoolWindow> FixedWindows(int64_t in, const PoolAxis& axis, int64_t dilation, int64_t out);

// Adaptive pooling's windows [floor(i * in / out), ceil((i + 1) * in / out)).
std::vector<kernels::PoolWindow> AdaptiveMaxWindows(int64_t in, int64_t out);

// Plans max pooling with indices (kernels/max_pool_indices.h) over
// [N, C, D, H, W] views x, y and indices (a 2-D op unsqueezes D), the
// windows of D, H and W given.
void PlanMaxPoolWithIndices(Plan& plan, const TensorRef& x, const TensorRef& y, const TensorRef& indices,
                            std::array<std::vector<kernels::PoolWindow>, 3> windows);

}  // namespace canopy::ops
