// aclnnLerp, aclnnLerps and the in-place forms: self + weight * (end - self)
// (torch.lerp), evaluated from the nearer end (kernels/binary_pointwise_functors.h).
// Lerp: self, end, weight and out all of one floating dtype, broadcast.
// Lerps: self and end of one dtype, the scalar weight rounded to it, the
// result cast to out (which may be wider).
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLerpDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kLerpsOutDtypes = kLerpDtypes | DtypeSet{ACL_DOUBLE};

aclnnStatus CheckSameDtype(Plan& plan, const char* name, aclDataType dtype, const char* self_name, aclDataType self) {
  if (dtype == self) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must have %s's dtype %s", name, DtypeName(dtype),
                     self_name, DtypeName(self));
}

// The broadcast of the operands is out's shape (in place: selfRef's own).
aclnnStatus CheckLerpShapes(Plan& plan, const char* self_name, const aclTensor* self, const aclTensor* end,
                            const aclTensor* weight, const aclTensor* out, bool in_place) {
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, "end", end->view_shape, shape));
  if (weight != nullptr) CANOPY_CHECK(plan.CheckBroadcast("self / end", shape, "weight", weight->view_shape, shape));
  if (in_place && shape != self->view_shape) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the operands broadcast to %s, not to 'selfRef''s own shape %s",
                       ShapeToString(shape).c_str(), ShapeToString(self->view_shape).c_str());
  }
  return plan.CheckShape(in_place ? "selfRef" : "out", out, shape);
}

aclnnStatus PlanLerpCommon(Plan& plan, const aclTensor* self, const aclTensor* end, const aclTensor* weight,
                           const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kLerpDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "end", end->dtype, self_name, self->dtype));
  CANOPY_CHECK(CheckSameDtype(plan, "weight", weight->dtype, self_name, self->dtype));
  if (!in_place) CANOPY_CHECK(CheckSameDtype(plan, "out", out->dtype, self_name, self->dtype));
  CANOPY_CHECK(CheckLerpShapes(plan, self_name, self, end, weight, out, in_place));
  const TensorRef start = plan.Input(self, self_name);
  const TensorRef stop = plan.Input(end, "end");
  const TensorRef w = plan.Input(weight, "weight");
  AddPointwise(plan, PointwiseOp::kLerp, self->dtype, self->dtype,
               {PointwiseOperand::Tensor(start), PointwiseOperand::Tensor(stop), PointwiseOperand::Tensor(w)},
               plan.Output(out, in_place ? "selfRef" : "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanLerpsCommon(Plan& plan, const aclTensor* self, const aclTensor* end, const aclScalar* weight,
                            const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kLerpDtypes));
  CANOPY_CHECK(plan.CheckDtype("end", end->dtype, kLerpDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "end", end->dtype, self_name, self->dtype));
  if (!in_place) CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kLerpsOutDtypes));
  CANOPY_CHECK(CheckLerpShapes(plan, self_name, self, end, nullptr, out, in_place));
  const TensorRef start = plan.Input(self, self_name);
  const TensorRef stop = plan.Input(end, "end");
  AddPointwise(plan, PointwiseOp::kLerp, self->dtype, self->dtype,
               {PointwiseOperand::Tensor(start), PointwiseOperand::Tensor(stop),
                PointwiseOperand::Scalar(RoundedTo(ValueOf(*weight), self->dtype))},
               plan.Output(out, in_place ? "selfRef" : "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanLerp(Plan& plan, const aclTensor* self, const aclTensor* end, const aclTensor* weight,
                     const aclTensor* out) {
  return PlanLerpCommon(plan, self, end, weight, out, false);
}
aclnnStatus PlanInplaceLerp(Plan& plan, const aclTensor* selfRef, const aclTensor* end, const aclTensor* weight) {
  return PlanLerpCommon(plan, selfRef, end, weight, selfRef, true);
}
aclnnStatus PlanLerps(Plan& plan, const aclTensor* self, const aclTensor* end, const aclScalar* weight,
                      const aclTensor* out) {
  return PlanLerpsCommon(plan, self, end, weight, out, false);
}
aclnnStatus PlanInplaceLerps(Plan& plan, const aclTensor* selfRef, const aclTensor* end, const aclScalar* weight) {
  return PlanLerpsCommon(plan, selfRef, end, weight, selfRef, true);
}

constexpr OpTraits kLerpTraits{
    .header = "aclnnop/aclnn_lerp_tensor.h", .dtypes = kLerpDtypes, .example = "f32[2,3] f32[2,3] f32[2,3] f32[2,3]"};
constexpr OpTraits kLerpsTraits{
    .header = "aclnnop/aclnn_lerp_scalar.h", .dtypes = kLerpDtypes, .example = "f32[2,3] f32[2,3] f32:0.25 f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Lerp, PlanLerp, kLerpTraits, (const aclTensor*, self), (const aclTensor*, end),
                (const aclTensor*, weight), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLerp, PlanInplaceLerp, InPlace(kLerpTraits, "f32[2,3] f32[2,3] f32[2,3]"), (aclTensor*, selfRef),
                (const aclTensor*, end), (const aclTensor*, weight))
CANOPY_ACLNN_OP(Lerps, PlanLerps, kLerpsTraits, (const aclTensor*, self), (const aclTensor*, end),
                (const aclScalar*, weight), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLerps, PlanInplaceLerps, InPlace(kLerpsTraits, "f32[2,3] f32[2,3] f32:0.25"),
                (aclTensor*, selfRef), (const aclTensor*, end), (const aclScalar*, weight))
