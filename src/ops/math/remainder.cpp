// aclnnRemainderTensorTensor, aclnnRemainderTensorScalar,
// aclnnRemainderScalarTensor and the in-place forms: self - floor(self /
// other) * other, the result in the divisor's sign (torch.remainder, Python's
// %). The operands promote (a floating scalar brings its own width into
// integer math), and the promotion must be one of the six dtypes CANN
// computes remainders in (INT8 % INT8 is rejected); the scalar-self form
// computes in out's dtype. Integers exact; an integer divisor of 0 gives self,
// as CANN documents (kernels/binary_pointwise_functors.h).
#include "aclnnop/aclnn_remainder.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kComputeDtypes = {ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16};
constexpr DtypeSet kInputDtypes = kComputeDtypes | DtypeSet{ACL_INT8, ACL_INT16, ACL_UINT8, ACL_BOOL};
constexpr DtypeSet kOutDtypes =
    kComputeDtypes | DtypeSet{ACL_UINT8, ACL_INT8, ACL_INT16, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr BinaryRule kRule{.op = PointwiseOp::kRemainder,
                           .self = kInputDtypes,
                           .other = kInputDtypes,
                           .out = kOutDtypes,
                           .inplace = kInputDtypes,
                           .inplace_other = kInputDtypes,
                           .compute = kComputeDtypes,
                           .scalar_promotion = ScalarPromotion::kFloatKeepsWidth};

aclnnStatus PlanTensorTensor(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kRule, self, other, out, false);
}
aclnnStatus PlanInplaceTensorTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kRule, selfRef, other, selfRef, true);
}
aclnnStatus PlanTensorScalar(Plan& plan, const aclTensor* self, const aclScalar* other, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kRule, self, other, out, false);
}
aclnnStatus PlanInplaceTensorScalar(Plan& plan, const aclTensor* selfRef, const aclScalar* other) {
  return PlanBinaryScalarOp(plan, kRule, selfRef, other, selfRef, true);
}

// self % other with a scalar dividend: everything computes in out's dtype.
aclnnStatus PlanScalarTensor(Plan& plan, const aclScalar* self, const aclTensor* other, const aclTensor* out) {
  CANOPY_CHECK(CheckScalarDtype(plan, "self", self, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckShape("out", out, other->view_shape));
  CANOPY_CHECK(plan.CheckCastable(other->dtype, "out", out->dtype));
  if (!kComputeDtypes.Contains(out->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s, which the remainder is computed in; supported: %s",
                       DtypeName(out->dtype), kComputeDtypes.ToString().c_str());
  }
  const TensorRef divisor = plan.Input(other, "other");
  AddPointwise(plan, PointwiseOp::kRemainder, out->dtype, out->dtype,
               {PointwiseOperand::Scalar(RoundedTo(ValueOf(*self), out->dtype)), PointwiseOperand::Tensor(divisor)},
               plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_remainder.h", .dtypes = kInputDtypes};

}  // namespace

CANOPY_ACLNN_OP(RemainderTensorTensor, PlanTensorTensor, WithExample(kTraits, "f32[2,3] f32[2,3] f32[2,3]"),
                (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRemainderTensorTensor, PlanInplaceTensorTensor, InPlace(kTraits, "f32[2,3] f32[2,3]"),
                (aclTensor*, selfRef), (const aclTensor*, other))
CANOPY_ACLNN_OP(RemainderTensorScalar, PlanTensorScalar, WithExample(kTraits, "f32[2,3] f32:1.5 f32[2,3]"),
                (const aclTensor*, self), (const aclScalar*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRemainderTensorScalar, PlanInplaceTensorScalar, InPlace(kTraits, "f32[2,3] f32:1.5"),
                (aclTensor*, selfRef), (const aclScalar*, other))
CANOPY_ACLNN_OP(RemainderScalarTensor, PlanScalarTensor, WithExample(kTraits, "f32:1.5 f32[2,3] f32[2,3]"),
                (const aclScalar*, self), (const aclTensor*, other), (aclTensor*, out))
