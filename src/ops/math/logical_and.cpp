// aclnnLogicalAnd, aclnnInplaceLogicalAnd: out = self && other (torch.logical_and; non-zero and NaN are true);
// broadcast; out takes any dtype (1 / 0), in place selfRef's own. Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_logical_and.h"

#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32,     ACL_INT64,      ACL_INT16,
                              ACL_INT8,  ACL_UINT8,   ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr BinaryRule kRule{.op = PointwiseOp::kLogicalAnd,
                           .self = kDtypes,
                           .other = kDtypes,
                           .out = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8,
                                   ACL_UINT8, ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
                           .inplace = kDtypes,
                           .inplace_other = kDtypes,
                           .policy = ResultPolicy::kBool};

aclnnStatus PlanLogicalAnd(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kRule, self, other, out, false);
}
aclnnStatus PlanInplaceLogicalAnd(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kRule, selfRef, other, selfRef, true);
}

constexpr OpTraits kTraits{
    .header = "aclnnop/aclnn_logical_and.h", .dtypes = kDtypes, .example = "f32[2,3] f32[2,3] bool[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(LogicalAnd, PlanLogicalAnd, kTraits, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLogicalAnd, PlanInplaceLogicalAnd, InPlace(kTraits, "f32[2,3] f32[2,3]"), (aclTensor*, selfRef),
                (const aclTensor*, other))
