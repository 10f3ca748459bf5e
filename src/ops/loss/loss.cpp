#include "loss.h"

#include <string_view>
#include <utility>

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

aclnnStatus CheckOneLossDtype(Plan& plan, std::initializer_list<std::pair<const char*, const aclTensor*>> tensors) {
  const auto& [first_name, first] = *tensors.begin();
  CANOPY_CHECK(plan.CheckDtype(first_name, first->dtype, kGeneratedLossDtypes));
  for (const auto& [name, t] : tensors) {
    if (t->dtype != first->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has dtype %s; it must be %s's %s", name,
                         DtypeName(t->dtype), first_name, DtypeName(first->dtype));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckOneLossShape(Plan& plan, aclnnStatus status,
                              std::initializer_list<std::pair<const char*, const aclTensor*>> tensors) {
  const auto& [first_name, first] = *tensors.begin();
  for (const auto& [name, t] : tensors) {
    if (t->view_shape != first->view_shape) {
      return plan.Reject(status, "argument '%s' has shape %s; it must be %s's %s", name,
                         ShapeToString(t->view_shape).c_str(), first_name, ShapeToString(first->view_shape).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus ParseReduction(Plan& plan, const char* name, const char* reduction, const char* fallback,
                           aclnnStatus status, int64_t& parsed) {
  const std::string_view text = reduction != nullptr ? reduction : fallback;
  for (const auto& [word, value] :
       {std::pair{"none", kReductionNone}, std::pair{"mean", kReductionMean}, std::pair{"sum", kReductionSum}}) {
    if (text == word) {
      parsed = value;
      return ACLNN_SUCCESS;
    }
  }
  return plan.Reject(status, "argument '%s' is \"%.*s\"; it must be \"none\", \"mean\" or \"sum\"", name,
                     static_cast<int>(text.size()), text.data());
}

aclnnStatus CheckLossOutCount(Plan& plan, aclnnStatus status, const char* name, const aclTensor* out,
                              const Shape& shape, int64_t reduction) {
  if (reduction == kReductionNone ? out->view_shape == shape : out->NumElements() == 1) return ACLNN_SUCCESS;
  return plan.Reject(status, "argument '%s' has shape %s; it must be %s", name, ShapeToString(out->view_shape).c_str(),
                     reduction == kReductionNone ? ShapeToString(shape).c_str() : "one element (mean, sum)");
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
