// aclnnHingeEmbeddingLoss (CANN's experimental/loss/hinge_embedding_loss, Atlas A2): input where target
// is 1, max(0, margin - input) where it is -1, kept ("none") or its "mean" or "sum". CANN generates the
// entry from its op definition: input, target and loss one dtype of FLOAT / FLOAT16 / BFLOAT16 (161002);
// its tiling wants input's shape for target, a finite margin, a known reduction and a loss of input's
// shape (none) or of one element (561002). An empty mean is NaN, an empty sum 0.
#include <cmath>

#include "aclnnop/aclnn_hinge_embedding_loss.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanHingeEmbeddingLoss(Plan& plan, const aclTensor* input, const aclTensor* target, double margin,
                                   const char* reduction, const aclTensor* loss) {
  CANOPY_CHECK(CheckOneLossDtype(plan, {{"input", input}, {"target", target}, {"loss", loss}}));
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  CANOPY_CHECK(CheckOneLossShape(plan, kTiling, {{"input", input}, {"target", target}}));
  const auto margin_f32 = static_cast<float>(margin);  // the op's attribute is a float
  if (!std::isfinite(margin_f32)) return plan.Reject(kTiling, "argument 'margin' is %g; it must be finite", margin);
  int64_t mode = kReductionMean;
  CANOPY_CHECK(ParseReduction(plan, "reduction", reduction, "mean", kTiling, mode));
  CANOPY_CHECK(CheckLossOutCount(plan, kTiling, "loss", loss, input->view_shape, mode));
  const TensorRef x = plan.Input(input, "input");
  const TensorRef t = plan.Input(target, "target");
  PlanLoss(plan, PointwiseOp::kHingeEmbeddingLoss, input->dtype,
           {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(t),
            PointwiseOperand::Scalar(ScalarValue::Real(margin_f32))},
           input->view_shape, mode, plan.Output(loss, "loss"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(HingeEmbeddingLoss, PlanHingeEmbeddingLoss,
                (OpTraits{.header = "aclnnop/aclnn_hinge_embedding_loss.h",
                          .dtypes = kGeneratedLossDtypes,
                          .example = "f32[2,3] f32[2,3] 1.0 'mean' f32[]"}),
                (const aclTensor*, input), (const aclTensor*, target), (double, margin), (char*, reduction),
                (const aclTensor*, loss))
