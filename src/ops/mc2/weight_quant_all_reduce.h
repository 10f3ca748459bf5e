// What the weight-quantised all-reduce forms share (WeightQuantMatmulAllReduce
// and WeightQuantMatmulAllReduceAddRmsNorm, in place or not): CANN's checks of
// the antiquant arguments and the plan of one rank's part on
// WeightQuantBatchMatmulV2's product.
#pragma once

#include "ops/framework/aclnn_op.h"
#include "ops/nn/weight_quant_matmul.h"

namespace canopy::ops {

// antiquantGroupSize: 0, or (k above 0) a multiple of 32 in [32, min(k - 1,
// INT32_MAX)], else `status` (the host layer's 161002, the tiling's 561002).
aclnnStatus CheckWeightQuantGroupSize(Plan& plan, int64_t k, int64_t group_size, aclnnStatus status);
// antiquantScale [1], [n] or [1, n] (group size 0), else [ceil(k / group), n];
// antiquantOffset (null: none) its shape; else `status`.
aclnnStatus CheckAntiquantShapes(Plan& plan, const aclTensor* scale, const aclTensor* offset, int64_t k, int64_t n,
                                 int64_t group_size, aclnnStatus status);
// The weight-quant tiling's limits (561002): m at most 2^31 - 1, k and n at
// most 65535; a FRACTAL_NZ x2 per tensor or per channel only.
aclnnStatus CheckWeightQuantTiling(Plan& plan, const aclTensor* x2, int64_t m, int64_t k, int64_t n,
                                   int64_t group_size);

struct WeightQuantPart {
  const aclTensor* x2 = nullptr;  // for its layout
  const aclTensor* scale_tensor = nullptr;
  const aclTensor* offset_tensor = nullptr;  // null: none
  int64_t group_size = 0, k = 0;
  TensorRef x1;  // [m, k]
  TensorRef x2_ref, scale;
  const TensorRef* offset = nullptr;
  const TensorRef* bias = nullptr;  // [n], x1's dtype
};

// part ([m, n], contiguous, x1's dtype) = x1 @ ((x2 + offset) * scale) + bias,
// in f32 and rounded once; an empty K gives the bias (or zeros). The layouts
// of x2 and its scales are checked here (161002).
aclnnStatus PlanWeightQuantPart(Plan& plan, const WeightQuantPart& p, const TensorRef& part);

}  // namespace canopy::ops
