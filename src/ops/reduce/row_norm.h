// What the normalisation ops (RmsNorm, AddRmsNorm, LayerNorm, GroupNorm) share:
// their tensors seen as `rows` rows of `length` elements and planned as one
// row-normalisation step (kernels/reduce_norm.h). Views that cannot be seen as
// strided rows are copied (inputs) or staged in a temporary (outputs).
#pragma once

#include <optional>

#include "kernels/reduce_norm.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

// One tensor argument of the op. `in_prototype` false: the op has no such
// argument; a null `tensor` with `in_prototype` is an optional one left out.
struct NormArg {
  bool in_prototype = false;
  const aclTensor* tensor = nullptr;
  const char* name = "";
};

inline NormArg Given(const aclTensor* tensor, const char* name) { return {true, tensor, name}; }

struct NormPlan {
  kernels::NormKind kind = kernels::NormKind::kRms;
  double eps = 0;
  int64_t rows = 0, length = 0;
  int64_t groups = 1, repeat = 1;  // see kernels::NormDesc
  double x_scale = 1;              // see kernels::NormDesc
  double gamma_offset = 0;         // see kernels::NormDesc
  double swish_scale = 0;          // see kernels::NormDesc
  // The prototype's order (DeepNorm): beta before gamma, mean and rstd before y.
  bool beta_before_gamma = false;
  bool stats_before_y = false;
  // AdaLayerNorm: y = y * (1 + ada_scale) + ada_shift, one [length] row of them for every
  // `ada_rows` rows of x (both of shape [rows / ada_rows, length] as elements).
  int64_t ada_rows = 1;
  // Inputs in prototype order (x, ada_scale, ada_shift, x2, gamma, beta, bias), then outputs (y, y2,
  // mean, rstd, sum). `bias` (AddLayerNorm's third addend, x's shape or gamma's) is broadcast to x's
  // shape and added to x2 in f32 before the row step, which then sees x + (x2 + bias). `y2` receives
  // y again in its own dtype.
  NormArg x, ada_scale, ada_shift, x2, gamma, beta, bias, y, y2, mean, rstd, sum;
};

// A registered argument (absent: not in the prototype, or an optional one left out).
struct NormOperandRef {
  bool present = false;
  TensorRef ref;
};
struct NormOperandRefs {
  NormOperandRef x, ada_scale, ada_shift, x2, gamma, beta, bias, y, y2, mean, rstd, sum;
};

// Registers every argument in that order and plans the step (nothing when rows is 0).
aclnnStatus PlanRowNorm(Plan& plan, const NormPlan& norm);

// The same in parts, for ops whose prototype puts arguments of their own between the norm's inputs
// and outputs (the quantising norms): the inputs, then the outputs, then the step. `y_into`, when
// given, receives y instead of a registered y (a temporary the op reads afterwards).
void RegisterRowNormInputs(Plan& plan, const NormPlan& norm, NormOperandRefs& refs);
void RegisterRowNormOutputs(Plan& plan, const NormPlan& norm, NormOperandRefs& refs);
void PlanRowNormStep(Plan& plan, const NormPlan& norm, const NormOperandRefs& refs, const TensorRef* y_into = nullptr);

// The element count of a shape.
int64_t ElementCount(const Shape& shape);

// The RMS norm of x1 + x2 (stored into x_out) over `rows` rows of `length`, times gamma: the
// add-and-norm half of the AddRmsNorm quant forms.
NormPlan AddRmsRows(double eps, int64_t rows, int64_t length, const aclTensor* x1, const aclTensor* x2,
                    const aclTensor* gamma, const aclTensor* x_out);

// An optional input (output) of the quantising norms registered in prototype order: its reference, or
// nothing (the parameter skipped) when the caller passed null.
std::optional<TensorRef> OptionalInput(Plan& plan, const aclTensor* tensor, const char* name);
std::optional<TensorRef> OptionalOutput(Plan& plan, const aclTensor* tensor, const char* name);

}  // namespace canopy::ops
