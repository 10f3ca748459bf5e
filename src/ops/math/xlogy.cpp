// aclnnXLogYTensor, aclnnXLogYScalarOther, aclnnXLogYScalarSelf and the
// in-place forms: self * log(other), 0 where self is 0 and other is not NaN
// (torch.xlogy). The operands promote as two tensors would (a scalar too);
// bool and integer promotions compute in FLOAT, and the scalar forms compute
// a DOUBLE promotion in FLOAT as well. The tensor form casts its result into
// out unchecked, as CANN does; the scalar forms need it castable.
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_scalar_self.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTensorDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_INT16,
                                    ACL_INT8,  ACL_UINT8,   ACL_BOOL,  ACL_BF16};
constexpr DtypeSet kScalarDtypes = kTensorDtypes | DtypeSet{ACL_DOUBLE};
constexpr DtypeSet kScalarOutDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

constexpr BinaryRule kTensorRule{.op = PointwiseOp::kXLogY,
                                 .self = kTensorDtypes,
                                 .other = kTensorDtypes,
                                 .out = kTensorDtypes,
                                 .inplace = kTensorDtypes,
                                 .inplace_other = kTensorDtypes,
                                 .policy = ResultPolicy::kFloat,
                                 .out_cast_checked = false};
constexpr BinaryRule kScalarOtherRule{.op = PointwiseOp::kXLogY,
                                      .self = kTensorDtypes,
                                      .other = kScalarDtypes,
                                      .out = kScalarOutDtypes,
                                      .inplace = kTensorDtypes,
                                      .inplace_other = kScalarDtypes,
                                      .policy = ResultPolicy::kAtMostFloat,
                                      .scalar_promotion = ScalarPromotion::kTensorTensor};

aclnnStatus PlanTensor(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kTensorRule, self, other, out, false);
}
aclnnStatus PlanInplaceTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kTensorRule, selfRef, other, selfRef, true);
}
aclnnStatus PlanScalarOther(Plan& plan, const aclTensor* self, const aclScalar* other, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kScalarOtherRule, self, other, out, false);
}
aclnnStatus PlanInplaceScalarOther(Plan& plan, const aclTensor* selfRef, const aclScalar* other) {
  return PlanBinaryScalarOp(plan, kScalarOtherRule, selfRef, other, selfRef, true);
}

// A scalar x with a tensor y.
aclnnStatus PlanScalarSelf(Plan& plan, const aclScalar* self, const aclTensor* other, const aclTensor* out) {
  CANOPY_CHECK(CheckScalarDtype(plan, "self", self, kScalarDtypes));
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kTensorDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kScalarOutDtypes));
  const aclDataType promoted = PromoteTypes(self->dtype, other->dtype);
  if (promoted == ACL_DT_UNDEFINED) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dtypes of scalar 'self' (%s) and 'other' (%s) cannot be promoted",
                       DtypeName(self->dtype), DtypeName(other->dtype));
  }
  const aclDataType compute = ComputeDtypeOf(kScalarOtherRule, promoted);
  CANOPY_CHECK(plan.CheckCastable(compute, "out", out->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, other->view_shape));
  const TensorRef y = plan.Input(other, "other");
  AddPointwise(plan, PointwiseOp::kXLogY, compute, compute,
               {PointwiseOperand::Scalar(RoundedTo(ValueOf(*self), compute)), PointwiseOperand::Tensor(y)},
               plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

constexpr OpTraits kTensorTraits{
    .header = "aclnnop/aclnn_x_log_y_tensor.h", .dtypes = kTensorDtypes, .example = "f32[2,3] f32[2,3] f32[2,3]"};
constexpr OpTraits kScalarOtherTraits{
    .header = "aclnnop/aclnn_x_log_y_scalar_other.h", .dtypes = kTensorDtypes, .example = "f32[2,3] f32:2 f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(XLogYTensor, PlanTensor, kTensorTraits, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceXLogYTensor, PlanInplaceTensor, InPlace(kTensorTraits, "f32[2,3] f32[2,3]"),
                (aclTensor*, selfRef), (const aclTensor*, other))
CANOPY_ACLNN_OP(XLogYScalarOther, PlanScalarOther, kScalarOtherTraits, (const aclTensor*, self),
                (const aclScalar*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceXLogYScalarOther, PlanInplaceScalarOther, InPlace(kScalarOtherTraits, "f32[2,3] f32:2"),
                (aclTensor*, selfRef), (const aclScalar*, other))
CANOPY_ACLNN_OP(XLogYScalarSelf, PlanScalarSelf,
                (OpTraits{.header = "aclnnop/aclnn_x_log_y_scalar_self.h",
                          .dtypes = kTensorDtypes,
                          .example = "f32:2 f32[2,3] f32[2,3]"}),
                (const aclScalar*, self), (const aclTensor*, other), (aclTensor*, out))
