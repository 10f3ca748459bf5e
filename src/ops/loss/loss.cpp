#include "loss.h"

#include "ops/reduce/reduction.h"

namespace canopy::ops {

aclnnStatus CheckReduction(Plan& plan, int64_t reduction, int64_t max) {
  if (reduction >= 0 && reduction <= max) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "reduction %lld is outside [0, %lld] (0 none, 1 mean, 2 sum%s)",
                     static_cast<long long>(reduction), static_cast<long long>(max), max > 2 ? ", 3 batchmean" : "");
}

aclnnStatus CheckLossOut(Plan& plan, const char* name, const aclTensor* out, const Shape& shape, int64_t reduction,
                         bool scalar_out) {
  if (reduction == kReductionNone) return plan.CheckShape(name, out, shape);
  if (scalar_out) return plan.CheckShape(name, out, Shape{});
  if (out->NumElements() == 1) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has shape %s; a reduced loss needs one element", name,
                     ShapeToString(out->view_shape).c_str());
}

aclDataType LossAccumulatorDtype(aclDataType compute) {
  return compute == ACL_FLOAT16 || compute == ACL_BF16 ? ACL_FLOAT : compute;
}

void PlanLoss(Plan& plan, PointwiseOp op, aclDataType compute, const std::vector<PointwiseOperand>& operands,
              const Shape& shape, int64_t reduction, const TensorRef& out) {
  if (reduction == kReductionNone) {
    AddPointwise(plan, op, compute, compute, operands, out);
    return;
  }
  const aclDataType acc = LossAccumulatorDtype(compute);
  const TensorRef losses = plan.Temporary(acc, shape);
  AddPointwise(plan, op, compute, acc, operands, losses);
  const std::vector<bool> all(shape.size(), true);
  PlanReduceInto(plan, reduction == kReductionMean ? kernels::ReduceKind::kMean : kernels::ReduceKind::kSum, losses,
                 all, false, acc, out);
}

}  // namespace canopy::ops
