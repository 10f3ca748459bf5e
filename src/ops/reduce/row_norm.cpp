// The normalisation ops' shared planning (see row_norm.h).
#include "row_norm.h"

#include <vector>

#include "ops/framework/tensor_view.h"

namespace canopy::ops {
namespace {

using Registered = NormOperandRef;

Registered RegisterInput(Plan& plan, const NormArg& arg) {
  if (!arg.in_prototype) return {};
  if (arg.tensor == nullptr) {
    plan.SkipInput();
    return {};
  }
  return {true, plan.Input(arg.tensor, arg.name)};
}

Registered RegisterOutput(Plan& plan, const NormArg& arg) {
  if (!arg.in_prototype) return {};
  if (arg.tensor == nullptr) {
    plan.SkipOutput();
    return {};
  }
  return {true, plan.Output(arg.tensor, arg.name)};
}

kernels::NormOperand OperandOf(const TensorRef& t, int64_t row_stride, int64_t stride) {
  return {true, t.buffer, t.dtype, row_stride, stride};
}

kernels::NormOperand RowsOperand(const TensorRef& rows) { return OperandOf(rows, rows.strides[0], rows.strides[1]); }

}  // namespace

int64_t ElementCount(const Shape& shape) {
  int64_t count = 1;
  for (const int64_t extent : shape) count *= extent;
  return count;
}

NormPlan AddRmsRows(double eps, int64_t rows, int64_t length, const aclTensor* x1, const aclTensor* x2,
                    const aclTensor* gamma, const aclTensor* x_out) {
  NormPlan norm;
  norm.kind = kernels::NormKind::kRms;
  norm.eps = eps;
  norm.length = length;
  norm.rows = rows;
  norm.x = Given(x1, "x1");
  norm.x2 = Given(x2, "x2");
  norm.gamma = Given(gamma, "gamma");
  norm.sum = Given(x_out, "xOut");
  return norm;
}

std::optional<TensorRef> OptionalInput(Plan& plan, const aclTensor* tensor, const char* name) {
  if (tensor == nullptr) {
    plan.SkipInput();
    return std::nullopt;
  }
  return plan.Input(tensor, name);
}

std::optional<TensorRef> OptionalOutput(Plan& plan, const aclTensor* tensor, const char* name) {
  if (tensor == nullptr) {
    plan.SkipOutput();
    return std::nullopt;
  }
  return plan.Output(tensor, name);
}

void RegisterRowNormInputs(Plan& plan, const NormPlan& norm, NormOperandRefs& refs) {
  refs.x = RegisterInput(plan, norm.x);
  refs.ada_scale = RegisterInput(plan, norm.ada_scale);
  refs.ada_shift = RegisterInput(plan, norm.ada_shift);
  refs.x2 = RegisterInput(plan, norm.x2);
  if (norm.beta_before_gamma) {
    refs.beta = RegisterInput(plan, norm.beta);
    refs.gamma = RegisterInput(plan, norm.gamma);
  } else {
    refs.gamma = RegisterInput(plan, norm.gamma);
    refs.beta = RegisterInput(plan, norm.beta);
  }
  refs.bias = RegisterInput(plan, norm.bias);
}

void RegisterRowNormOutputs(Plan& plan, const NormPlan& norm, NormOperandRefs& refs) {
  if (norm.stats_before_y) {
    refs.mean = RegisterOutput(plan, norm.mean);
    refs.rstd = RegisterOutput(plan, norm.rstd);
    refs.y = RegisterOutput(plan, norm.y);
    refs.y2 = RegisterOutput(plan, norm.y2);
  } else {
    refs.y = RegisterOutput(plan, norm.y);
    refs.y2 = RegisterOutput(plan, norm.y2);
    refs.mean = RegisterOutput(plan, norm.mean);
    refs.rstd = RegisterOutput(plan, norm.rstd);
  }
  refs.sum = RegisterOutput(plan, norm.sum);
}

aclnnStatus PlanRowNorm(Plan& plan, const NormPlan& norm) {
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  RegisterRowNormOutputs(plan, norm, refs);
  PlanRowNormStep(plan, norm, refs);
  return ACLNN_SUCCESS;
}

void PlanRowNormStep(Plan& plan, const NormPlan& norm, const NormOperandRefs& refs, const TensorRef* y_into) {
  if (norm.rows == 0) return;  // every output is empty

  const Shape rows_shape = {norm.rows, norm.length};
  kernels::NormDesc desc;
  desc.kind = norm.kind;
  desc.rows = norm.rows;
  desc.length = norm.length;
  desc.eps = norm.eps;
  desc.groups = norm.groups;
  desc.repeat = norm.repeat;
  desc.x_scale = norm.x_scale;
  desc.gamma_offset = norm.gamma_offset;
  desc.swish_scale = norm.swish_scale;
  desc.x = RowsOperand(InputAs(plan, refs.x.ref, rows_shape));
  if (refs.ada_scale.present && refs.ada_shift.present) {
    const Shape ada_shape = {norm.rows / norm.ada_rows, norm.length};
    desc.ada_rows = norm.ada_rows;
    desc.ada_scale = RowsOperand(InputAs(plan, refs.ada_scale.ref, ada_shape));
    desc.ada_shift = RowsOperand(InputAs(plan, refs.ada_shift.ref, ada_shape));
  }
  if (refs.x2.present && refs.bias.present) {
    const TensorRef addend = plan.Temporary(ACL_FLOAT, refs.x2.ref.shape);
    plan.Elementwise(kernels::ElementwiseOp::kAdd, kernels::ComputeType::kF32,
                     {refs.x2.ref, BroadcastTo(refs.bias.ref, refs.x2.ref.shape)}, addend,
                     kernels::ScalarValue::Integer(1));
    desc.x2 = RowsOperand(*Reshape(addend, rows_shape));
  } else if (refs.x2.present) {
    desc.x2 = RowsOperand(InputAs(plan, refs.x2.ref, rows_shape));
  }
  for (const auto& [channel, operand] : {std::pair{&refs.gamma, &desc.gamma}, std::pair{&refs.beta, &desc.beta}}) {
    if (!channel->present) continue;
    const TensorRef flat = InputAs(plan, channel->ref, {channel->ref.NumElements()});
    *operand = OperandOf(flat, 0, flat.strides[0]);
  }
  std::vector<std::pair<TensorRef, TensorRef>> copies;  // temporary -> output, after the step
  const auto output = [&](const Registered& r, const Shape& shape, kernels::NormOperand& operand, bool per_row) {
    if (!r.present || r.ref.NumElements() == 0) return;
    const StagedOutput staged = OutputAs(plan, r.ref, shape);
    operand = per_row ? OperandOf(staged.view, staged.view.strides[0], 0) : RowsOperand(staged.view);
    if (staged.copy_back) copies.emplace_back(staged.view, r.ref);
  };
  if (y_into != nullptr) {
    output(Registered{true, *y_into}, rows_shape, desc.y, false);
  } else {
    output(refs.y, rows_shape, desc.y, false);
  }
  output(refs.y2, rows_shape, desc.y2, false);
  output(refs.sum, rows_shape, desc.sum, false);
  output(refs.mean, {norm.rows}, desc.mean, true);
  output(refs.rstd, {norm.rows}, desc.rstd, true);
  plan.AddStep(kernels::MakeNormStep(desc));
  for (const auto& [temporary, dst] : copies) plan.Copy(*Reshape(temporary, dst.shape), dst);
}

}  // namespace canopy::ops
