// The convolution planning that aclnnConvolution's file owns, for the ops of
// other headers that convolve (aclnnQuantConvolution).
#pragma once

#include <cstdint>
#include <vector>

#include "ops/framework/plan.h"

namespace canopy::ops {

// y = x (*) w, a plain convolution with one group, for checked operands of
// any views and dtypes (integer operands are converted; the sum runs in f32),
// with per spatial dim `stride`, `padding` on both sides and `dilation`.
aclnnStatus AddPlainConvolution(Plan& plan, const TensorRef& x, const TensorRef& w, const TensorRef& y,
                                const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                                const std::vector<int64_t>& dilation);

}  // namespace canopy::ops
