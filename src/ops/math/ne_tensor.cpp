// aclnnNeTensor, aclnnInplaceNeTensor: out = (self != other) (torch.ne), other a tensor broadcast with self and
// promoted; out takes any dtype a BOOL casts to (1 / 0), in place selfRef's own. Dtypes: CANN's A2 (910B) lists, which
// leave out the UINT64 the document's table names.
#include "aclnnop/aclnn_ne_tensor.h"

#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr BinaryRule kRule{.op = PointwiseOp::kNe,
                           .self = kEqualityDtypes,
                           .other = kEqualityDtypes,
                           .out = kEqualityDtypes,
                           .inplace = kEqualityDtypes,
                           .inplace_other = kEqualityDtypes,
                           .policy = ResultPolicy::kBool};

aclnnStatus PlanNeTensor(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kRule, self, other, out, false);
}
aclnnStatus PlanInplaceNeTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kRule, selfRef, other, selfRef, true);
}

constexpr OpTraits kTraits{
    .header = "aclnnop/aclnn_ne_tensor.h", .dtypes = kEqualityDtypes, .example = "f32[2,3] f32[2,3] bool[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(NeTensor, PlanNeTensor, kTraits, (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceNeTensor, PlanInplaceNeTensor, InPlace(kTraits, "f32[2,3] f32[2,3]"), (aclTensor*, selfRef),
                (const aclTensor*, other))
