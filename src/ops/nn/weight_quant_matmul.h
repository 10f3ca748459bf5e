// The weight-quantised product WeightQuantBatchMatmulV2 plans, shared with the
// mc2 ops that fuse it (WeightQuantMatmulAllReduce and its AddRmsNorm forms):
//   y = x @ ((weight + offset) * scale) + bias
// with an INT8 or INT4 weight [k, n] and one scale (and offset) per tensor, per
// column or per group of group_size rows along K.
#pragma once

#include "kernels/quant_matmul.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

// What an op calls the weight, its scale and its offset, for the messages.
struct WeightQuantNames {
  const char* weight = "weight";
  const char* scale = "antiquantScale";
  const char* offset = "antiquantOffsetOptional";
};

// The weight's layout (its [k, n] view: storage row-major or the transpose of
// it; an INT4 weight's pairs sharing a byte) and the scale's and offset's
// (contiguous or transposed views), else 161002; describes the weight into `w`
// (group_size 0: one scale row). Its buffers are set by PlanWeightQuantProduct.
aclnnStatus DescribeQuantWeight(Plan& plan, const aclTensor* weight, const aclTensor* scale, const aclTensor* offset,
                                int64_t group_size, kernels::QuantWeight& w, const WeightQuantNames& names = {});

// y [m, n] = x [m, k] @ dequantised weight + bias, in f32, rounded once to y's
// dtype. scale and offset (null: none) are [1], [n], [1, n] or [groups, n];
// bias (null: none) is [n] or [1, n].
aclnnStatus PlanWeightQuantProduct(Plan& plan, kernels::QuantWeight w, const TensorRef& x, const TensorRef& weight,
                                   const TensorRef& scale, const TensorRef* offset, const TensorRef* bias,
                                   const TensorRef& y);

// UINT64 / INT64 deqScale words hold an f32 in their low 32 bits: `t` read as
// those f32 (every other one of its storage); any other dtype as it is.
TensorRef DeqScaleValues(const TensorRef& t);

// The experts' weights w [E, k, n] (INT8, or INT4 two a byte; row-major)
// dequantised, (w + offset) * scale, into f32 `dense` [E, k', n] (k' >= k,
// row-major; rows past k are the caller's), with `scales` and `offsets` (null:
// none) dense f32 [E, groups, n], a group being k / groups rows of K.
void PlanDequantizeExperts(Plan& plan, const TensorRef& w, const TensorRef& scales, const TensorRef* offsets,
                           const TensorRef& dense);

}  // namespace canopy::ops
