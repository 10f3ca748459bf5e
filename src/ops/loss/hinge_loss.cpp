// aclnnHingeLoss (CANN's experimental/loss/hinge_loss, Atlas A2): max(0, 1 - target * predict) per
// element, no reduction. CANN generates the entry from its op definition: predict, target and loss one
// dtype of FLOAT / FLOAT16 / BFLOAT16 and, as its document says the first phase checks, one shape
// (161002); empty tensors compute nothing.
#include "aclnnop/aclnn_hinge_loss.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanHingeLoss(Plan& plan, const aclTensor* predict, const aclTensor* target, const aclTensor* loss) {
  CANOPY_CHECK(CheckOneLossDtype(plan, {{"predict", predict}, {"target", target}, {"loss", loss}}));
  CANOPY_CHECK(
      CheckOneLossShape(plan, ACLNN_ERR_PARAM_INVALID, {{"predict", predict}, {"target", target}, {"loss", loss}}));
  const TensorRef p = plan.Input(predict, "predict");
  const TensorRef t = plan.Input(target, "target");
  PlanLoss(plan, PointwiseOp::kHingeLoss, predict->dtype, {PointwiseOperand::Tensor(p), PointwiseOperand::Tensor(t)},
           predict->view_shape, kReductionNone, plan.Output(loss, "loss"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(HingeLoss, PlanHingeLoss,
                (OpTraits{.header = "aclnnop/aclnn_hinge_loss.h",
                          .dtypes = kGeneratedLossDtypes,
                          .example = "f32[2,3] f32[2,3] f32[2,3]"}),
                (const aclTensor*, predict), (const aclTensor*, target), (aclTensor*, loss))
