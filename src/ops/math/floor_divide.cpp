// aclnnFloorDivide, aclnnFloorDivides and the in-place forms: floor(self /
// other), rounded toward negative infinity (torch.floor_divide, Python's //).
// The operands promote as two tensors would, a scalar too (a FLOAT scalar
// makes a FLOAT16 tensor compute in FLOAT), and a BOOL promotion computes in
// FLOAT. As on CANN's Atlas A2 path the result is cast into out without a
// castability check (a FLOAT quotient into an INT32 out truncates). Integers
// exact; an integer divisor of 0 gives 0 (CANN leaves it undefined), a float
// one self / 0.
#include "aclnnop/aclnn_floor_divide.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT64,  ACL_INT32, ACL_INT16,
                                   ACL_INT8,    ACL_UINT8, ACL_DOUBLE, ACL_BOOL,  ACL_BF16};
constexpr DtypeSet kOutDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,    ACL_INT32,      ACL_INT64, ACL_INT16,
                                 ACL_INT8,  ACL_UINT8,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr BinaryRule kTensorRule{.op = PointwiseOp::kFloorDivide,
                                 .self = kInputDtypes,
                                 .other = kInputDtypes,
                                 .out = kOutDtypes,
                                 .inplace = kInputDtypes,
                                 .inplace_other = kInputDtypes,
                                 .policy = ResultPolicy::kBoolAsFloat,
                                 .scalar_promotion = ScalarPromotion::kTensorTensor,
                                 .out_cast_checked = false};
// The scalar form's out also takes BOOL.
constexpr BinaryRule kScalarRule = [] {
  BinaryRule rule = kTensorRule;
  rule.out = kOutDtypes | DtypeSet{ACL_BOOL};
  return rule;
}();

aclnnStatus PlanFloorDivide(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kTensorRule, self, other, out, false);
}
aclnnStatus PlanInplaceFloorDivide(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kTensorRule, selfRef, other, selfRef, true);
}
aclnnStatus PlanFloorDivides(Plan& plan, const aclTensor* self, const aclScalar* other, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kScalarRule, self, other, out, false);
}
aclnnStatus PlanInplaceFloorDivides(Plan& plan, const aclTensor* selfRef, const aclScalar* other) {
  return PlanBinaryScalarOp(plan, kScalarRule, selfRef, other, selfRef, true);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_floor_divide.h", .dtypes = kInputDtypes};

}  // namespace

CANOPY_ACLNN_OP(FloorDivide, PlanFloorDivide, WithExample(kTraits, "f32[2,3] f32[2,3] f32[2,3]"),
                (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceFloorDivide, PlanInplaceFloorDivide, InPlace(kTraits, "f32[2,3] f32[2,3]"),
                (aclTensor*, selfRef), (const aclTensor*, other))
CANOPY_ACLNN_OP(FloorDivides, PlanFloorDivides, WithExample(kTraits, "f32[2,3] f32:1.5 f32[2,3]"),
                (const aclTensor*, self), (const aclScalar*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceFloorDivides, PlanInplaceFloorDivides, InPlace(kTraits, "f32[2,3] f32:1.5"),
                (aclTensor*, selfRef), (const aclScalar*, other))
