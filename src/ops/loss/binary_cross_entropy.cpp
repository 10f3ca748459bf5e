// aclnnBinaryCrossEntropy (torch binary_cross_entropy): -w (y log x + (1 - y)
// log(1 - x)), each log clamped at -100; aclnnBinaryCrossEntropyWithLogits:
// w ((1 - y) x - (1 + (posWeight - 1) y) log sigmoid(x)) in its stable form.
// Both keep the loss (reduction 0) or reduce it to its mean (1) or sum (2) in
// a one-element out. self and target have one shape; weights broadcast to it.
// Dtypes FLOAT, FLOAT16, BF16; the 16-bit floats compute in FLOAT.
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kBceDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus CheckSameShape(Plan& plan, const aclTensor* self, const aclTensor* target) {
  if (self->view_shape == target->view_shape) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'target' has shape %s; it must have self's shape %s",
                     ShapeToString(target->view_shape).c_str(), ShapeToString(self->view_shape).c_str());
}

// An optional weight as an operand broadcast to `shape`, or the scalar 1.
aclnnStatus WeightOperand(Plan& plan, const char* name, const aclTensor* weight, const Shape& shape,
                          PointwiseOperand& operand) {
  if (weight == nullptr) {
    plan.SkipInput();
    operand = PointwiseOperand::Scalar(ScalarValue::Real(1));
    return ACLNN_SUCCESS;
  }
  CANOPY_CHECK(CheckBroadcastInto(plan, "target", shape, name, weight->view_shape));
  operand = PointwiseOperand::Tensor(plan.Input(weight, name));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBce(Plan& plan, const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                    int64_t reduction, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kBceDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kBceDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kBceDtypes));
  if (weight != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kBceDtypes));
    for (const auto& [name, dtype] :
         {std::pair{"target", target->dtype}, std::pair{"weight", weight->dtype}, std::pair{"out", out->dtype}}) {
      if (dtype != self->dtype) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "with a weight, '%s' (%s) must have self's dtype %s", name,
                           DtypeName(dtype), DtypeName(self->dtype));
      }
    }
  }
  CANOPY_CHECK(CheckSameShape(plan, self, target));
  CANOPY_CHECK(CheckReduction(plan, reduction));
  CANOPY_CHECK(CheckLossOut(plan, "out", out, self->view_shape, reduction, false));
  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Input(target, "target");
  PointwiseOperand w;
  CANOPY_CHECK(WeightOperand(plan, "weight", weight, self->view_shape, w));
  const aclDataType compute = PromoteTypes(self->dtype, target->dtype);
  PlanLoss(plan, PointwiseOp::kBinaryCrossEntropy, compute,
           {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y), w}, self->view_shape, reduction,
           plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBceWithLogits(Plan& plan, const aclTensor* self, const aclTensor* target,
                              const aclTensor* weightOptional, const aclTensor* posWeightOptional, int64_t reduction,
                              const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kBceDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kBceDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kBceDtypes));
  if (target->dtype != out->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must have target's dtype %s",
                       DtypeName(out->dtype), DtypeName(target->dtype));
  }
  for (const auto& [name, weight] :
       {std::pair{"weightOptional", weightOptional}, std::pair{"posWeightOptional", posWeightOptional}}) {
    if (weight != nullptr && CategoryOf(weight->dtype) != DtypeCategory::kFloat) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be floating", name,
                         DtypeName(weight->dtype));
    }
  }
  CANOPY_CHECK(CheckReduction(plan, reduction));
  CANOPY_CHECK(CheckSameShape(plan, self, target));
  CANOPY_CHECK(CheckLossOut(plan, "out", out, self->view_shape, reduction, false));
  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Input(target, "target");
  PointwiseOperand w, pw;
  CANOPY_CHECK(WeightOperand(plan, "weightOptional", weightOptional, self->view_shape, w));
  CANOPY_CHECK(WeightOperand(plan, "posWeightOptional", posWeightOptional, self->view_shape, pw));
  const aclDataType compute = PromoteTypes(self->dtype, target->dtype);
  PlanLoss(plan, PointwiseOp::kBceWithLogits, compute,
           {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y), w, pw}, self->view_shape, reduction,
           plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(BinaryCrossEntropy, PlanBce,
                (OpTraits{.header = "aclnnop/aclnn_binary_cross_entropy.h",
                          .dtypes = kBceDtypes,
                          .example = "f32[2,3]{0.1:0.9} f32[2,3]{0:1} f32[2,3] 1 f32[]"}),
                (const aclTensor*, self), (const aclTensor*, target), (const aclTensor*, weight, optional),
                (int64_t, reduction), (aclTensor*, out))
CANOPY_ACLNN_OP(BinaryCrossEntropyWithLogits, PlanBceWithLogits,
                (OpTraits{.header = "aclnnop/aclnn_binary_cross_entropy_with_logits.h",
                          .dtypes = kBceDtypes,
                          .example = "f32[2,3] f32[2,3]{0:1} f32[2,3] f32[3] 1 f32[]"}),
                (const aclTensor*, self), (const aclTensor*, target), (const aclTensor*, weightOptional, optional),
                (const aclTensor*, posWeightOptional, optional), (int64_t, reduction), (aclTensor*, out))
