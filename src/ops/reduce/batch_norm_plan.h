// What the batch-normalisation ops (BatchNorm and SyncBatchNorm's steps: BatchNormStats,
// BatchNormElemt, BatchNormReduce, the gather ops) share in planning: optional operands,
// per-channel vectors and the input seen as [N, C, S].
#pragma once

#include <optional>

#include "kernels/batch_norm.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

namespace canopy::ops {

inline kernels::ChannelOperand ChannelOf(const std::optional<TensorRef>& t) {
  if (!t) return {};
  return {true, t->buffer, t->dtype, t->strides.empty() ? 1 : t->strides[0]};
}

inline std::optional<TensorRef> OptionalInput(Plan& plan, const aclTensor* t, const char* name) {
  if (t == nullptr) {
    plan.SkipInput();
    return std::nullopt;
  }
  return plan.Input(t, name);
}

inline std::optional<TensorRef> OptionalOutput(Plan& plan, const aclTensor* t, const char* name) {
  if (t == nullptr) {
    plan.SkipOutput();
    return std::nullopt;
  }
  return plan.Output(t, name);
}

// A null `t` passes; else it must be [channels].
inline aclnnStatus CheckChannelVector(Plan& plan, const char* name, const aclTensor* t, int64_t channels) {
  if (t == nullptr) return ACLNN_SUCCESS;
  if (t->rank() != 1 || t->view_shape[0] != channels) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; expected [%lld] (input's channels)", name,
                       ShapeToString(t->view_shape).c_str(), static_cast<long long>(channels));
  }
  return ACLNN_SUCCESS;
}

// `t` ([n, c, s] as elements) as a kernel operand: a view where strides allow, else a contiguous copy.
inline kernels::StridedOperand NcsInput(Plan& plan, const TensorRef& t, const Shape& ncs) {
  std::optional<TensorRef> view = Reshape(t, ncs);
  if (!view) view = Reshape(plan.Contiguous(t, t.dtype), ncs);
  return {view->buffer, view->dtype, {view->strides[0], view->strides[1], view->strides[2]}};
}

// The kernel's description of an [N, C, S] input (training: its statistics).
inline kernels::BatchNormDesc NcsDesc(Plan& plan, const TensorRef& in, const Shape& ncs, bool training, double eps) {
  kernels::BatchNormDesc desc;
  desc.training = training;
  desc.eps = eps;
  desc.n = ncs[0];
  desc.c = ncs[1];
  desc.s = ncs[2];
  desc.x = NcsInput(plan, in, ncs);
  return desc;
}

// An output as [n, c, s]: a view where strides allow, else a temporary that FinishNcsOutput copies back.
struct NcsOutput {
  kernels::StridedOperand operand;
  std::optional<TensorRef> staged;
};
inline NcsOutput PlanNcsOutput(Plan& plan, const TensorRef& out, const Shape& ncs) {
  std::optional<TensorRef> view = Reshape(out, ncs);
  NcsOutput result;
  if (!view) {
    view = plan.Temporary(out.dtype, ncs);
    result.staged = view;
  }
  result.operand = {view->buffer, view->dtype, {view->strides[0], view->strides[1], view->strides[2]}};
  return result;
}
// After the step: the staged temporary (if any) into `out`.
inline void FinishNcsOutput(Plan& plan, const NcsOutput& staged, const TensorRef& out) {
  if (staged.staged) plan.Copy(*Reshape(*staged.staged, out.shape), out);
}

}  // namespace canopy::ops
