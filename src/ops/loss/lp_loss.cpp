// aclnnLpLoss (CANN's experimental/loss/lp_loss, Atlas A2): |predict - label| (p = 1, the only order
// CANN takes), kept ("none") or its "mean" or "sum". CANN generates the entry from its op definition:
// predict, label and out one dtype of FLOAT / FLOAT16 / BFLOAT16 (161002); its tiling rejects an empty
// predict, a label of another shape, p other than 1 and an unknown reduction (561002). Its tiling does
// not look at out's shape; Canopy asks for predict's (none) or one element (mean, sum), as the document
// states, since it writes there.
#include "aclnnop/aclnn_lp_loss.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanLpLoss(Plan& plan, const aclTensor* predict, const aclTensor* label, int64_t p, const char* reduction,
                       const aclTensor* out) {
  CANOPY_CHECK(CheckOneLossDtype(plan, {{"predict", predict}, {"label", label}, {"out", out}}));
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  if (predict->NumElements() == 0) {
    return plan.Reject(kTiling, "argument 'predict' has shape %s; empty tensors are not supported",
                       ShapeToString(predict->view_shape).c_str());
  }
  CANOPY_CHECK(CheckOneLossShape(plan, kTiling, {{"predict", predict}, {"label", label}}));
  if (p != 1) return plan.Reject(kTiling, "argument 'p' is %lld; only 1 is supported", static_cast<long long>(p));
  int64_t mode = kReductionMean;
  CANOPY_CHECK(ParseReduction(plan, "reduction", reduction, "mean", kTiling, mode));
  CANOPY_CHECK(CheckLossOutCount(plan, kTiling, "out", out, predict->view_shape, mode));
  const TensorRef x = plan.Input(predict, "predict");
  const TensorRef y = plan.Input(label, "label");
  PlanLoss(plan, PointwiseOp::kL1Loss, predict->dtype, {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y)},
           predict->view_shape, mode, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(LpLoss, PlanLpLoss,
                (OpTraits{.header = "aclnnop/aclnn_lp_loss.h",
                          .dtypes = kGeneratedLossDtypes,
                          .example = "f32[2,3] f32[2,3] 1 'mean' f32[]"}),
                (const aclTensor*, predict), (const aclTensor*, label), (int64_t, p), (const char*, reduction),
                (const aclTensor*, out))
