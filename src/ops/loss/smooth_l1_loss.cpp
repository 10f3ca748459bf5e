// aclnnSmoothL1Loss (torch smooth_l1_loss): with d = |self - target|, 0.5 d^2 /
// beta below beta, else d - beta / 2 (beta 0: d); kept (reduction 0) or its
// mean (1) or sum (2). self and target broadcast and promote (FLOAT, FLOAT16,
// BF16), the result must cast to `result`; beta below 0 or NaN is 161002,
// checked after the shapes as CANN does. CANN does not check a reduced
// result's shape; Canopy asks for one element.
#include <cmath>

#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSmoothL1Dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanSmoothL1Loss(Plan& plan, const aclTensor* self, const aclTensor* target, int64_t reduction, float beta,
                             const aclTensor* result) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSmoothL1Dtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kSmoothL1Dtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "target", target->dtype, promoted));
  CANOPY_CHECK(plan.CheckCastable(promoted, "result", result->dtype));
  CANOPY_CHECK(CheckReduction(plan, reduction));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "target", target->view_shape, shape));
  CANOPY_CHECK(CheckLossOut(plan, "result", result, shape, reduction, false));
  if (!(beta >= 0)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'beta' is %g; it must be 0 or more", beta);
  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Input(target, "target");
  PlanLoss(
      plan, PointwiseOp::kSmoothL1Loss, promoted,
      {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y), PointwiseOperand::Scalar(ScalarValue::Real(beta))},
      shape, reduction, plan.Output(result, "result"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(SmoothL1Loss, PlanSmoothL1Loss,
                (OpTraits{.header = "aclnnop/aclnn_smooth_l1_loss.h",
                          .dtypes = kSmoothL1Dtypes,
                          .example = "f32[2,3] f32[2,3] 1 1.0 f32[]"}),
                (const aclTensor*, self), (const aclTensor*, target), (int64_t, reduction), (float, beta),
                (aclTensor*, result))
