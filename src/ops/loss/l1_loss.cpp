// aclnnL1Loss (torch l1_loss): |self - target|, kept (reduction 0) or its mean
// (1) or sum (2) into a rank-0 out. self and target broadcast and promote to
// one of FLOAT, FLOAT16, BF16, INT64 (integers exact, no integer mean; with
// reduction none an integer self takes no floating target, as CANN checks);
// the result must cast to out.
#include "aclnnop/aclnn_l1_loss.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kL1Dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT64};

aclnnStatus PlanL1Loss(Plan& plan, const aclTensor* self, const aclTensor* target, int64_t reduction,
                       const aclTensor* out) {
  CANOPY_CHECK(CheckReduction(plan, reduction));
  const bool self_float = IsFloating(self->dtype), target_float = IsFloating(target->dtype);
  if (reduction == kReductionNone && !self_float && target_float) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "with reduction none, integer 'self' (%s) takes no floating 'target' (%s)",
                       DtypeName(self->dtype), DtypeName(target->dtype));
  }
  if (reduction == kReductionMean && !self_float && !target_float) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the mean of integer 'self' (%s) and 'target' (%s) is not defined",
                       DtypeName(self->dtype), DtypeName(target->dtype));
  }
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "target", target->dtype, promoted));
  CANOPY_CHECK(plan.CheckDtype("the promoted dtype", promoted, kL1Dtypes));
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "target", target->view_shape, shape));
  CANOPY_CHECK(CheckLossOut(plan, "out", out, shape, reduction, true));
  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Input(target, "target");
  PlanLoss(plan, PointwiseOp::kL1Loss, promoted, {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y)}, shape,
           reduction, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(L1Loss, PlanL1Loss,
                (OpTraits{
                    .header = "aclnnop/aclnn_l1_loss.h", .dtypes = kL1Dtypes, .example = "f32[2,3] f32[2,3] 1 f32[]"}),
                (const aclTensor*, self), (const aclTensor*, target), (int64_t, reduction), (aclTensor*, out))
