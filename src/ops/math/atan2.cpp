// aclnnAtan2, aclnnInplaceAtan2: out = atan2(self, other), self the y and
// other the x coordinate (torch.atan2). The operands broadcast and promote;
// a bool or integer promotion computes in FLOAT. CANN casts the result into
// out without a castability check, so an integer selfRef takes the truncated
// angle. Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_atan2.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_INT8, ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_UINT8,
                                   ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeSet kOutDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr BinaryRule kRule{.op = PointwiseOp::kAtan2,
                           .self = kInputDtypes,
                           .other = kInputDtypes,
                           .out = kOutDtypes,
                           .inplace = kInputDtypes,
                           .inplace_other = kInputDtypes,
                           .policy = ResultPolicy::kFloat,
                           .out_cast_checked = false};

aclnnStatus PlanAtan2(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kRule, self, other, out, false);
}
aclnnStatus PlanInplaceAtan2(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kRule, selfRef, other, selfRef, true);
}

constexpr OpTraits kTraits{
    .header = "aclnnop/aclnn_atan2.h", .dtypes = kInputDtypes, .example = "f32[2,3] f32[2,3] f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Atan2, PlanAtan2, kTraits, (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAtan2, PlanInplaceAtan2, InPlace(kTraits, "f32[2,3] f32[2,3]"), (aclTensor*, selfRef),
                (aclTensor*, other))
