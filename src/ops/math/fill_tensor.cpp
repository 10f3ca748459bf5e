// aclnnInplaceFillTensor (torch.Tensor.fill_ with a tensor value): every
// element of selfRef takes the one element of `value` (rank 0, or [1]),
// converted to selfRef's dtype; the value is read on the stream, so it may be
// the output of earlier work. aclnnInplaceMaskedFillTensor: the same where the
// BOOL mask, broadcast to selfRef's shape, is true; its value has rank 0 and a
// dtype castable to selfRef's. Dtypes: CANN's Atlas A2 code (FillTensor's
// document lists the unsigned dtypes, its code DOUBLE and the complex ones).
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "binary_pointwise.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFillDtypes = {ACL_FLOAT, ACL_INT32,  ACL_INT64, ACL_FLOAT16,   ACL_INT16,      ACL_INT8,
                                  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr DtypeSet kMaskedFillDtypes = {ACL_INT32, ACL_INT8, ACL_BOOL, ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanFillTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* value) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, kFillDtypes));
  const Shape& v = value->view_shape;
  if (v.size() > 1 || (v.size() == 1 && v[0] != 1)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'value' has shape %s; it must have rank 0 or shape [1]",
                       ShapeToString(v).c_str());
  }
  plan.Input(selfRef, "selfRef");  // operands in prototype order: selfRef is input 0 and output 0
  const TensorRef fill = *Reshape(plan.Input(value, "value"), Shape{});
  plan.Copy(fill, plan.Output(selfRef, "selfRef"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMaskedFillTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* mask, const aclTensor* value) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, kMaskedFillDtypes));
  CANOPY_CHECK(plan.CheckDtype("value", value->dtype, kMaskedFillDtypes));
  CANOPY_CHECK(plan.CheckDtype("mask", mask->dtype, DtypeSet{ACL_BOOL}));
  if (!value->view_shape.empty()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'value' has shape %s; it must have rank 0",
                       ShapeToString(value->view_shape).c_str());
  }
  CANOPY_CHECK(CheckBroadcastInto(plan, "selfRef", selfRef->view_shape, "mask", mask->view_shape));
  if (!CanCast(value->dtype, selfRef->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'value' of dtype %s cannot be cast to 'selfRef' dtype %s",
                       DtypeName(value->dtype), DtypeName(selfRef->dtype));
  }
  const TensorRef self = plan.Input(selfRef, "selfRef");
  const TensorRef m = plan.Input(mask, "mask");
  const TensorRef fill = plan.Input(value, "value");
  // The value in selfRef's dtype first (a FLOAT 0.1 into FLOAT16 data is FLOAT16's 0.1).
  const TensorRef converted = fill.dtype == self.dtype ? fill : plan.Contiguous(fill, self.dtype);
  AddPointwise(plan, PointwiseOp::kMaskedFill, selfRef->dtype, selfRef->dtype,
               {PointwiseOperand::Tensor(self), PointwiseOperand::Tensor(m), PointwiseOperand::Tensor(converted)},
               plan.Output(selfRef, "selfRef"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    InplaceFillTensor, PlanFillTensor,
    (OpTraits{
        .header = "aclnnop/aclnn_fill_tensor.h", .dtypes = kFillDtypes, .in_place = true, .example = "f32[2,3] f32[]"}),
    (aclTensor*, selfRef), (const aclTensor*, value))
CANOPY_ACLNN_OP(InplaceMaskedFillTensor, PlanMaskedFillTensor,
                (OpTraits{.header = "aclnnop/aclnn_masked_fill_tensor.h",
                          .dtypes = kMaskedFillDtypes,
                          .in_place = true,
                          .example = "f32[2,3] bool[2,3] f32[]"}),
                (aclTensor*, selfRef), (const aclTensor*, mask), (const aclTensor*, value))
