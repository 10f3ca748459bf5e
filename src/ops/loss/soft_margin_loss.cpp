// aclnnSoftMarginLoss (torch soft_margin_loss): log(1 + exp(-target * self)),
// kept (reduction 0), its mean (1) or its sum (any other value: CANN does not
// check the argument and sums), into a rank-0 out when reduced. self, target
// and out are FLOAT, FLOAT16 or BF16; the operands broadcast and promote.
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSoftMarginDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanSoftMarginLoss(Plan& plan, const aclTensor* self, const aclTensor* target, int64_t reduction,
                               const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSoftMarginDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kSoftMarginDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kSoftMarginDtypes));
  const int64_t mode = reduction == kReductionNone || reduction == kReductionMean ? reduction : kReductionSum;
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "target", target->view_shape, shape));
  CANOPY_CHECK(CheckLossOut(plan, "out", out, shape, mode, true));
  const aclDataType promoted = PromoteTypes(self->dtype, target->dtype);
  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Input(target, "target");
  PlanLoss(plan, PointwiseOp::kSoftMarginLoss, promoted, {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y)},
           shape, mode, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(SoftMarginLoss, PlanSoftMarginLoss,
                (OpTraits{.header = "aclnnop/aclnn_soft_margin_loss.h",
                          .dtypes = kSoftMarginDtypes,
                          .example = "f32[2,3] f32[2,3] 1 f32[]"}),
                (const aclTensor*, self), (const aclTensor*, target), (int64_t, reduction), (aclTensor*, out))
