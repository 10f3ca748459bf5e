// aclnnLeftShift, aclnnLeftShifts, aclnnRightShift: self shifted by shiftBits
// bit positions (torch.bitwise_left_shift, bitwise_right_shift), integers
// only. The operands promote as two tensors would (a scalar too), the shift
// runs in the promoted dtype and wraps there, and the result is cast to out.
// Left shifts outside [0, width) give 0 (CANN defines only that range); right
// shifts clamp the count into [0, width - 1] as CANN's kernel does (signed
// values fill with their sign). Empty operands succeed before the promotion is
// checked, as in CANN.
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_right_shift.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kShiftDtypes = {ACL_INT8,  ACL_INT16,  ACL_INT32,  ACL_INT64,
                                   ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64};

// The width operand of the functors (kernels/binary_pointwise_functors.h).
PointwiseOperand WidthOf(aclDataType dtype) {
  return PointwiseOperand::Scalar(ScalarValue::Integer(static_cast<int64_t>(DtypeSize(dtype)) * 8));
}

aclnnStatus CheckPromoted(Plan& plan, aclDataType self, aclDataType shift, aclDataType& promoted) {
  promoted = PromoteTypes(self, shift);
  if (promoted != ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dtypes %s and %s of the value and 'shiftBits' cannot be promoted",
                     DtypeName(self), DtypeName(shift));
}

aclnnStatus PlanTensorShift(Plan& plan, PointwiseOp op, const char* self_name, const aclTensor* self,
                            const aclTensor* shiftBits, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kShiftDtypes));
  CANOPY_CHECK(plan.CheckDtype("shiftBits", shiftBits->dtype, kShiftDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kShiftDtypes));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, "shiftBits", shiftBits->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const TensorRef value = plan.Input(self, self_name);
  const TensorRef bits = plan.Input(shiftBits, "shiftBits");
  const TensorRef dst = plan.Output(out, "out");
  if (self->NumElements() == 0 || shiftBits->NumElements() == 0) return ACLNN_SUCCESS;
  aclDataType promoted;
  CANOPY_CHECK(CheckPromoted(plan, self->dtype, shiftBits->dtype, promoted));
  AddPointwise(plan, op, promoted, promoted,
               {PointwiseOperand::Tensor(value), PointwiseOperand::Tensor(bits), WidthOf(promoted)}, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanLeftShift(Plan& plan, const aclTensor* self, const aclTensor* shiftBits, const aclTensor* out) {
  return PlanTensorShift(plan, PointwiseOp::kLeftShift, "self", self, shiftBits, out);
}
aclnnStatus PlanRightShift(Plan& plan, const aclTensor* input, const aclTensor* shiftBits, const aclTensor* out) {
  return PlanTensorShift(plan, PointwiseOp::kRightShift, "input", input, shiftBits, out);
}

aclnnStatus PlanLeftShifts(Plan& plan, const aclTensor* self, const aclScalar* shiftBits, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kShiftDtypes));
  CANOPY_CHECK(CheckScalarDtype(plan, "shiftBits", shiftBits, kShiftDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kShiftDtypes));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const TensorRef value = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (self->NumElements() == 0) return ACLNN_SUCCESS;
  aclDataType promoted;
  CANOPY_CHECK(CheckPromoted(plan, self->dtype, shiftBits->dtype, promoted));
  AddPointwise(plan, PointwiseOp::kLeftShift, promoted, promoted,
               {PointwiseOperand::Tensor(value), PointwiseOperand::Scalar(ValueOf(*shiftBits)), WidthOf(promoted)},
               dst);
  return ACLNN_SUCCESS;
}

constexpr OpTraits kLeftTraits{.header = "aclnnop/aclnn_left_shift.h", .dtypes = kShiftDtypes};

}  // namespace

CANOPY_ACLNN_OP(LeftShift, PlanLeftShift, WithExample(kLeftTraits, "i32[2,3] i32[2,3] i32[2,3]"),
                (const aclTensor*, self), (const aclTensor*, shiftBits), (aclTensor*, out))
CANOPY_ACLNN_OP(LeftShifts, PlanLeftShifts, WithExample(kLeftTraits, "i32[2,3] i32:2 i32[2,3]"),
                (const aclTensor*, self), (const aclScalar*, shiftBits), (aclTensor*, out))
CANOPY_ACLNN_OP(RightShift, PlanRightShift,
                (OpTraits{.header = "aclnnop/aclnn_right_shift.h",
                          .dtypes = kShiftDtypes,
                          .example = "i32[2,3] i32[2,3] i32[2,3]"}),
                (const aclTensor*, input), (const aclTensor*, shiftBits), (aclTensor*, out))
