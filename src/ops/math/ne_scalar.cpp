// aclnnNeScalar, aclnnInplaceNeScalar: out = (self != other) (torch.ne), other a scalar (CANN's TensorScalar
// deduction); out takes any dtype a BOOL casts to (1 / 0), in place selfRef's own. Dtypes: the Atlas A2 column of
// CANN's document.
#include "aclnnop/aclnn_ne_scalar.h"

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

aclnnStatus PlanNeScalar(Plan& plan, const aclTensor* self, const aclScalar* other, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kRule, self, other, out, false);
}
aclnnStatus PlanInplaceNeScalar(Plan& plan, const aclTensor* selfRef, const aclScalar* other) {
  return PlanBinaryScalarOp(plan, kRule, selfRef, other, selfRef, true);
}

constexpr OpTraits kTraits{
    .header = "aclnnop/aclnn_ne_scalar.h", .dtypes = kEqualityDtypes, .example = "f32[2,3] f32:1 bool[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(NeScalar, PlanNeScalar, kTraits, (const aclTensor*, self), (const aclScalar*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceNeScalar, PlanInplaceNeScalar, InPlace(kTraits, "f32[2,3] f32:1"), (aclTensor*, selfRef),
                (const aclScalar*, other))
