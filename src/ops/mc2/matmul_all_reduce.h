// What the MatmulAllReduce family shares (MatmulAllReduce, its V2, and the
// AddRmsNorm forms): CANN's host checks of the product's operands, and the
// plan of one rank's part, allreduce(x1 @ x2 + bias [+ x3]).
#pragma once

#include "collective.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

// The operands' checks of MatmulAllReduce(V2) in CANN's order, all 161002:
// dtypes (f16 or bf16, one for all), then x2 in a plain format, then shapes
// (x2 [k, n], x1 [m, k] or [b, s, k], output x1's shape with n last, bias
// [n], x3 output's shape). `x3` may be null (MatmulAllReduce has none).
aclnnStatus CheckMatmulAllReduceOperands(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                         const aclTensor* x3, const aclTensor* output);

// Plans `reduced` (contiguous, of the output dtype) = the sum over the group's
// ranks of each rank's x1 @ x2 + bias (+ x3): the product accumulates in f32
// with the bias and is rounded to the output dtype, x3 is added (rounded
// again), and the sum runs on those rounded parts, as the NPU's fused kernel
// writes its part before HCCL sums. `bias` and `x3` may be null.
void PlanMatmulAllReduceInto(Plan& plan, const TensorRef& x1, const TensorRef& x2, const TensorRef* bias,
                             const TensorRef* x3, const CommGroup& group, const TensorRef& reduced);
// Its product alone: part = x1 @ x2 + bias, accumulated in f32, rounded to part's dtype.
void PlanMatmulProductInto(Plan& plan, const TensorRef& x1, const TensorRef& x2, const TensorRef* bias,
                           const TensorRef& part);

// The tail every all-reduce form shares: x3 (null for none) added to this
// rank's part `reduced` (contiguous, of the output dtype; the sum rounded to
// it, as CANN's kernel adds x3 before it communicates), then `reduced` summed
// over the group's ranks in place.
void PlanAddX3AllReduce(Plan& plan, const TensorRef* x3, const CommGroup& group, const TensorRef& reduced);
// Its first half: part = part + x3 (rounded to part's dtype); nothing without x3.
void PlanAddX3(Plan& plan, const TensorRef* x3, const TensorRef& part);

// `t` as a [rows, cols] matrix: a view where its strides allow one, else a
// contiguous copy (x1 [b, s, k] as [b * s, k], say).
TensorRef AsMatrix(Plan& plan, const TensorRef& t, int64_t rows, int64_t cols);

// The rank counts the all-reduce forms run on (Atlas A2, full mesh).
inline constexpr std::initializer_list<uint32_t> kAllReduceRankSizes = {1, 2, 4, 8};

}  // namespace canopy::ops
