// aclnnFusedCrossEntropyLossWithMaxSum (Megatron's vocabulary-parallel cross
// entropy, its last part): lossOut = log(sumExpLogits) - predictedLogits per
// row; with vocabParallelLogitsOptional [rows, V], softMaxOutOptional =
// exp(logits - logitsMax[row]) / sumExpLogits[row]. labelSmoothing must be 0;
// inputOptional and weightOptional are not read (CANN's code ignores them
// too). Computed in FLOAT with the elementwise engines.
#include <optional>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_fused_cross_entropy_loss_with_max_sum.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kVocabDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanFusedCrossEntropyLossWithMaxSum(Plan& plan, const aclTensor* logitsMax, const aclTensor* sumExpLogits,
                                                const aclTensor* predictedLogits, float labelSmoothing,
                                                const aclTensor* inputOptional, const aclTensor* weightOptional,
                                                const aclTensor* vocabParallelLogitsOptional, const aclTensor* lossOut,
                                                const aclTensor* softMaxOutOptional) {
  const aclTensor* vocab = vocabParallelLogitsOptional;
  if (vocab != nullptr && softMaxOutOptional == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "'softMaxOutOptional' must be given with vocabParallelLogitsOptional");
  }
  for (const auto& [name, t] : {std::pair{"logitsMax", logitsMax}, std::pair{"sumExpLogits", sumExpLogits},
                                std::pair{"predictedLogits", predictedLogits}, std::pair{"lossOut", lossOut}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {ACL_FLOAT}));
  }
  if (vocab != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("vocabParallelLogitsOptional", vocab->dtype, kVocabDtypes));
    CANOPY_CHECK(plan.CheckDtype("softMaxOutOptional", softMaxOutOptional->dtype, {ACL_FLOAT}));
  }
  CANOPY_CHECK(plan.CheckRank("logitsMax", logitsMax, 1, 1));
  for (const auto& [name, t] : {std::pair{"sumExpLogits", sumExpLogits}, std::pair{"predictedLogits", predictedLogits},
                                std::pair{"lossOut", lossOut}}) {
    CANOPY_CHECK(plan.CheckShape(name, t, logitsMax->view_shape));
  }
  if (vocab != nullptr) {
    CANOPY_CHECK(plan.CheckRank("vocabParallelLogitsOptional", vocab, 2, 2));
    CANOPY_CHECK(plan.CheckShape("softMaxOutOptional", softMaxOutOptional, vocab->view_shape));
    if (vocab->view_shape[0] != logitsMax->view_shape[0]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'vocabParallelLogitsOptional' has %lld rows; logitsMax has %lld",
                         static_cast<long long>(vocab->view_shape[0]),
                         static_cast<long long>(logitsMax->view_shape[0]));
    }
  }
  if (labelSmoothing != 0.0F) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'labelSmoothing' is %g; only 0 is supported",
                       static_cast<double>(labelSmoothing));
  }
  const TensorRef max = plan.Input(logitsMax, "logitsMax");
  const TensorRef sum = plan.Input(sumExpLogits, "sumExpLogits");
  const TensorRef predicted = plan.Input(predictedLogits, "predictedLogits");
  for (const aclTensor* t : {inputOptional, weightOptional}) {
    if (t != nullptr) {
      plan.Input(t, t == inputOptional ? "inputOptional" : "weightOptional");
    } else {
      plan.SkipInput();
    }
  }
  std::optional<TensorRef> logits;
  if (vocab != nullptr) {
    logits = plan.Input(vocab, "vocabParallelLogitsOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef loss = plan.Output(lossOut, "lossOut");
  std::optional<TensorRef> softmax;
  if (softMaxOutOptional != nullptr) {
    softmax = plan.Output(softMaxOutOptional, "softMaxOutOptional");
  } else {
    plan.SkipOutput();
  }
  if (max.NumElements() == 0) return ACLNN_SUCCESS;
  // loss = log(sum) - predicted
  const TensorRef log_sum = plan.Temporary(ACL_FLOAT, max.shape);
  plan.Unary(UnaryOp::kLog, ComputeType::kF32, sum, log_sum);
  plan.Elementwise(ElementwiseOp::kSub, ComputeType::kF32, {log_sum, predicted}, loss, ScalarValue::Integer(1));
  if (logits && softmax && logits->NumElements() != 0) {
    // softmax = exp(logits - max[row]) / sum[row]
    const TensorRef centred = plan.Temporary(ACL_FLOAT, logits->shape);
    plan.Elementwise(ElementwiseOp::kSub, ComputeType::kF32, {*logits, Unsqueeze(max, 1)}, centred,
                     ScalarValue::Integer(1));
    plan.Unary(UnaryOp::kExp, ComputeType::kF32, centred, centred);
    plan.Elementwise(ElementwiseOp::kDiv, ComputeType::kF32, {centred, Unsqueeze(sum, 1)}, *softmax,
                     ScalarValue::Integer(1));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(FusedCrossEntropyLossWithMaxSum, PlanFusedCrossEntropyLossWithMaxSum,
                (OpTraits{.header = "aclnnop/aclnn_fused_cross_entropy_loss_with_max_sum.h",
                          .dtypes = kVocabDtypes,
                          // !CODE (registry_example.h): the softmax output comes with the vocabulary logits
                          .example = "f32[4] f32[4]{1:3} f32[4] 0.0 - - f32[4,6] f32[4] f32[4,6]!161001"}),
                (const aclTensor*, logitsMax), (const aclTensor*, sumExpLogits), (const aclTensor*, predictedLogits),
                (float, labelSmoothing), (const aclTensor*, inputOptional, optional),
                (const aclTensor*, weightOptional, optional), (const aclTensor*, vocabParallelLogitsOptional, optional),
                (aclTensor*, lossOut), (aclTensor*, softMaxOutOptional, optional))
