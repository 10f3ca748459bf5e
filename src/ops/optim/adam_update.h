// The Adam family's element update, shared by ApplyAdamW(V2), ApplyAdamD, ApplyFusedEmaAdam and FusedAdamw:
// the tensors are gathered into f32 workspace (any mix of FLOAT, FLOAT16 and
// BFLOAT16), updated by one parallel, vectorisable loop that reads `step` when it
// runs, and stored back through their views.
#pragma once

#include <optional>

#include "ops/framework/plan.h"

namespace canopy::ops {

// The dtypes of the Adam family's tensors.
inline constexpr DtypeSet kAdamDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// 161002 naming `name` unless `tensor` holds exactly one element (a hyperparameter given as a tensor).
aclnnStatus CheckOneElement(Plan& plan, const char* name, const aclTensor* tensor);

// `src` copied into a contiguous workspace tensor of `dtype` (the optimizers'
// working copy, updated in place by their steps and stored back through the views).
TensorRef WorkingCopy(Plan& plan, const TensorRef& src, aclDataType dtype);
// The working copy in f32, as the Adam family computes.
inline TensorRef GatheredF32(Plan& plan, const TensorRef& src) { return WorkingCopy(plan, src, ACL_FLOAT); }

// Hyperparameters held in one-element tensors and read when the step runs (ApplyAdamW): they stand for the
// options' lr, weight_decay, beta1, beta2 and eps, and the bias corrections become 1 - beta1_power * beta1 and
// 1 - beta2_power * beta2 (the powers are those of the previous step).
// With `options.current_powers` (ApplyAdamD) the powers are this step's: the corrections are 1 - beta1_power and
// 1 - beta2_power. ApplyAdamD has no weight decay.
struct AdamHyperTensors {
  TensorRef beta1_power, beta2_power, lr;
  std::optional<TensorRef> weight_decay;
  TensorRef beta1, beta2, eps;
};

struct AdamTensors {
  TensorRef var, m, v, grad;
  std::optional<TensorRef> step;              // one FLOAT or INT64 element; absent with `hyper`
  TensorRef var_out, m_out, v_out;            // the same tensors as outputs
  std::optional<TensorRef> max_v, max_v_out;  // amsgrad's maximum of v (not stored back without max_v_out)
  std::optional<AdamHyperTensors> hyper;      // run-time hyperparameters
  std::optional<TensorRef> ema, ema_out;      // the EMA weights s
  std::optional<TensorRef> grad_scale;        // one element: grad is divided by it
  std::optional<TensorRef> found_inf;         // one element: 1 skips the update
};

struct AdamOptions {
  float lr = 0, beta1 = 0, beta2 = 0, eps = 0, weight_decay = 0;
  bool l2 = false;              // grad += weightDecay * var (Adam's L2); else decoupled decay (AdamW)
  bool bias_correction = true;  // divide m by 1 - beta1^step and v by 1 - beta2^step
  bool maximize = false;        // ascend: grad = -grad
  float ema_decay = 0;          // with `ema`: s = emaDecay * s + (1 - emaDecay) * var_new
  // TensorFlow's ApplyAdam (ApplyAdamD): the hyperparameter powers are this step's, the bias corrections go into
  // the step size, lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power), and eps is not scaled:
  //   var = var - lr_t * m' / (sqrt(v) + eps), m' = nesterov ? beta1 * m + (1 - beta1) * g : m
  bool current_powers = false;
  bool nesterov = false;
};

// Nothing changes when found_inf holds 1. Per element, g = grad / grad_scale (negated with maximize; + weightDecay *
// var with l2):
//   m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2;  max_v = max(max_v, v)
//   var = var * (1 - lr * weightDecay, unless l2) - lr * (m / c1) / (sqrt(v' / c2) + eps)
// with v' = max_v under amsgrad, c1, c2 the bias corrections (1 without them).
void PlanAdamUpdate(Plan& plan, const AdamTensors& tensors, const AdamOptions& options);

}  // namespace canopy::ops
