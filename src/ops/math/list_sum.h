// The sum of a tensor list into one out, shared by aclnnSum and aclnnAddN:
// every tensor broadcast to out's shape, added in list order in one f32
// (floating dtypes) or int64 (integers, wrapping into out) temporary, then
// written to out.
#pragma once

#include <vector>

#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

inline void PlanListSum(Plan& plan, const std::vector<TensorRef>& inputs, const TensorRef& dst) {
  if (dst.NumElements() == 0 || inputs.empty()) return;
  if (inputs.size() == 1) {
    plan.Copy(inputs[0], dst);
    return;
  }
  const bool floating = IsFloating(dst.dtype);
  const TensorRef sum = plan.Temporary(floating ? ACL_FLOAT : ACL_INT64, dst.shape);
  const ComputeType compute = floating ? ComputeType::kF32 : ComputeType::kI64;
  plan.Elementwise(ElementwiseOp::kAdd, compute, {inputs[0], inputs[1]}, sum, ScalarValue::Integer(1));
  for (size_t i = 2; i < inputs.size(); ++i) {
    plan.Elementwise(ElementwiseOp::kAdd, compute, {sum, inputs[i]}, sum, ScalarValue::Integer(1));
  }
  plan.Copy(sum, dst);
}

}  // namespace canopy::ops
