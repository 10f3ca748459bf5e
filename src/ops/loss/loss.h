// What CANN's loss ops share: the reduction argument (0 none, 1 mean, 2 sum)
// and the plan of an elementwise loss followed by its reduction.
#pragma once

#include <initializer_list>
#include <utility>
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

// CANN's string reduction ("none", "mean" or "sum"; a null optional one is `fallback`) as the number
// above; any other string is `status`, naming `name`.
aclnnStatus ParseReduction(Plan& plan, const char* name, const char* reduction, const char* fallback,
                           aclnnStatus status, int64_t& parsed);

// out's shape as CANN's generated loss ops check it (`status` otherwise): `shape` for reduction none,
// any shape of one element for mean and sum.
aclnnStatus CheckLossOutCount(Plan& plan, aclnnStatus status, const char* name, const aclTensor* out,
                              const Shape& shape, int64_t reduction);

// The tensors of CANN's generated loss ops (their op definitions' dtype tables): the first FLOAT,
// FLOAT16 or BFLOAT16, every other of its dtype (161002 naming the first that is not).
inline constexpr DtypeSet kGeneratedLossDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
aclnnStatus CheckOneLossDtype(Plan& plan, std::initializer_list<std::pair<const char*, const aclTensor*>> tensors);

// Every one of `tensors` after the first has the first's shape (`status` naming it otherwise).
aclnnStatus CheckOneLossShape(Plan& plan, aclnnStatus status,
                              std::initializer_list<std::pair<const char*, const aclTensor*>> tensors);

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
