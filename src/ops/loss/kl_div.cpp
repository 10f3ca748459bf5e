// aclnnKlDiv (torch kl_div): target (log target - self), 0 where target is 0,
// or exp(target) (target - self) with logTarget; kept (reduction 0) or reduced
// to its mean (1), sum (2) or sum over the first dim's extent (3, batchmean)
// in a one-element out. self and target broadcast and promote (FLOAT, FLOAT16,
// BF16), the result must cast to out. Empty operands succeed before the
// broadcast check, as in CANN.
#include "aclnnop/aclnn_kl_div.h"
#include "loss.h"
#include "ops/reduce/reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kKlDivDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kReductionBatchMean = 3;

aclnnStatus PlanKlDiv(Plan& plan, const aclTensor* self, const aclTensor* target, int64_t reduction, bool logTarget,
                      const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kKlDivDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kKlDivDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kKlDivDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "target", target->dtype, promoted));
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  CANOPY_CHECK(CheckReduction(plan, reduction, kReductionBatchMean));
  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Input(target, "target");
  if (self->NumElements() == 0 || target->NumElements() == 0) {
    if (reduction != kReductionNone) CANOPY_CHECK(CheckLossOut(plan, "out", out, {}, reduction, false));
    const TensorRef dst = plan.Output(out, "out");
    if (reduction == kReductionNone) return ACLNN_SUCCESS;
    // batchmean divides by self's first extent (a rank-0 self counts as one).
    const bool empty_batch = !self->view_shape.empty() && self->view_shape[0] == 0;
    const bool nan = reduction == kReductionMean || (reduction == kReductionBatchMean && empty_batch);
    plan.Fill(dst, ScalarValue::Real(nan ? std::numeric_limits<double>::quiet_NaN() : 0.0));
    return ACLNN_SUCCESS;
  }
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "target", target->view_shape, shape));
  CANOPY_CHECK(CheckLossOut(plan, "out", out, shape, reduction, false));
  const PointwiseOp op = logTarget ? PointwiseOp::kKlDivLogTarget : PointwiseOp::kKlDiv;
  const std::vector<PointwiseOperand> operands = {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y)};
  const TensorRef dst = plan.Output(out, "out");
  if (reduction != kReductionBatchMean) {
    PlanLoss(plan, op, promoted, operands, shape, reduction, dst);
    return ACLNN_SUCCESS;
  }
  // batchmean: the sum over the first dim's extent (a rank-0 operand counts as [1]).
  const aclDataType acc = LossAccumulatorDtype(promoted);
  const TensorRef sum = plan.Temporary(acc, {});
  PlanLoss(plan, op, promoted, operands, shape, kReductionSum, sum);
  const double batch = shape.empty() ? 1.0 : static_cast<double>(shape[0]);
  plan.Elementwise(ElementwiseOp::kMul, kernels::ComputeTypeOf(acc), {sum}, dst, ScalarValue::Real(1),
                   ScalarValue::Real(1.0 / batch));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(KlDiv, PlanKlDiv,
                (OpTraits{.header = "aclnnop/aclnn_kl_div.h",
                          .dtypes = kKlDivDtypes,
                          .example = "f32[2,3] f32[2,3]{0:1} 1 false f32[]"}),
                (const aclTensor*, self), (const aclTensor*, target), (int64_t, reduction), (bool, logTarget),
                (aclTensor*, out))
