// aclnnHuberLoss (CANN's experimental/loss/huber_loss, Atlas A2): with e = predictions - targets,
// 0.5 e^2 up to |e| = delta, delta (|e| - delta / 2) beyond, per element. CANN generates the entry from
// its op definition: one dtype of FLOAT / FLOAT16 / BFLOAT16 (161002); its tiling wants one shape and
// delta above 0 (561002). Empty tensors compute nothing.
#include "aclnnop/aclnn_huber_loss.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanHuberLoss(Plan& plan, const aclTensor* predictions, const aclTensor* targets, float delta,
                          const aclTensor* loss) {
  CANOPY_CHECK(CheckOneLossDtype(plan, {{"predictions", predictions}, {"targets", targets}, {"loss", loss}}));
  CANOPY_CHECK(CheckOneLossShape(plan, ACLNN_ERR_INNER_TILING_ERROR,
                                 {{"predictions", predictions}, {"targets", targets}, {"loss", loss}}));
  if (!(delta > 0)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'delta' is %g; it must be above 0",
                       static_cast<double>(delta));
  }
  const TensorRef p = plan.Input(predictions, "predictions");
  const TensorRef t = plan.Input(targets, "targets");
  PlanLoss(
      plan, PointwiseOp::kHuberLoss, predictions->dtype,
      {PointwiseOperand::Tensor(p), PointwiseOperand::Tensor(t), PointwiseOperand::Scalar(ScalarValue::Real(delta))},
      predictions->view_shape, kReductionNone, plan.Output(loss, "loss"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(HuberLoss, PlanHuberLoss,
                (OpTraits{.header = "aclnnop/aclnn_huber_loss.h",
                          .dtypes = kGeneratedLossDtypes,
                          .example = "f32[2,3] f32[2,3] 1.0 f32[2,3]"}),
                (const aclTensor*, predictions), (const aclTensor*, targets), (float, delta), (aclTensor*, loss))
