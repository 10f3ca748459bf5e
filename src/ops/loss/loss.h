// What CANN's loss ops share: the reduction argument (0 none, 1 mean, 2 sum)
// and the plan of an elementwise loss followed by its reduction.
#pragma once

#include <vector>

#include "ops/math/binary_pointwise.h"

namespace canopy::ops {

inline constexpr int64_t kReductionNone = 0;
inline constexpr int64_t kReductionMean = 1;
inline constexpr int64_t kReductionSum = 2;

// `reduction` within [0, max] (161002 otherwise).
aclnnStatus CheckReduction(Plan& plan, int64_t reduction, int64_t max = kReductionSum);

// out is `shape` for reduction none; one element (of rank 0 when `scalar_out`,
// else any rank: CANN's CheckShapeAndScalarSame) for mean and sum.
aclnnStatus CheckLossOut(Plan& plan, const char* name, const aclTensor* out, const Shape& shape, int64_t reduction,
                         bool scalar_out);

// The dtype a loss on `compute` operands accumulates its mean or sum in: FLOAT
// for the 16-bit floats (CANN's kernels give FLOAT), else the compute dtype
// (DOUBLE, INT64).
aclDataType LossAccumulatorDtype(aclDataType compute);

// The elementwise loss f(operands) over `shape`, computed in `compute`: kept in
// out (reduction none), or its mean or sum over every element into out's one
// element (an empty mean is NaN, an empty sum 0).
void PlanLoss(Plan& plan, PointwiseOp op, aclDataType compute, const std::vector<PointwiseOperand>& operands,
              const Shape& shape, int64_t reduction, const TensorRef& out);

}  // namespace canopy::ops
