// aclnnEqTensor, aclnnInplaceEqTensor: out = (self == other) (torch.eq), self
// and other broadcast and promoted; out takes any dtype (1 / 0), in place
// selfRef's own.
#include "aclnnop/aclnn_eq_tensor.h"

#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr BinaryRule kEq{.op = PointwiseOp::kEq,
                         .self = kEqualityDtypes,
                         .other = kEqualityDtypes,
                         .out = kEqualityDtypes,
                         .inplace = kEqualityDtypes,
                         .inplace_other = kEqualityDtypes,
                         .policy = ResultPolicy::kBool,
                         .inplace_rejects_one_empty = true};

aclnnStatus PlanEqTensor(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kEq, self, other, out, false);
}
aclnnStatus PlanInplaceEqTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kEq, selfRef, other, selfRef, true);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_eq_tensor.h", .dtypes = kEqualityDtypes};

}  // namespace

CANOPY_ACLNN_OP(EqTensor, PlanEqTensor, kTraits, (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceEqTensor, PlanInplaceEqTensor, InPlace(kTraits), (const aclTensor*, selfRef),
                (const aclTensor*, other))
