// aclnnApplyAdamW: one AdamW step in place, every hyperparameter a one-element tensor read when
// the step runs:
//   g = maximize ? -grad : grad;  m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2
//   amsgrad: v' = max(maxGradNorm, v) (maxGradNorm itself is not updated), else v' = v
//   var = var * (1 - lr * weightDecay) - lr * m / (1 - beta1Power * beta1)
//                                       / (sqrt(v' / (1 - beta2Power * beta2)) + eps)
// On Atlas A2 this is CANN's experimental/optim/apply_adam_w (its op definition names ascend910b;
// optim/apply_adam_w is the Ascend 950 one). All tensors share varRef's dtype; computed in f32 on
// the shared Adam update (adam_update.h).
#include <optional>
#include <utility>

#include "aclnnop/aclnn_apply_adam_w.h"
#include "adam_update.h"
#include "ops/framework/aclnn_op.h"
#include "ops/shape/shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanApplyAdamW(Plan& plan, const aclTensor* var, const aclTensor* m, const aclTensor* v,
                           const aclTensor* beta1_power, const aclTensor* beta2_power, const aclTensor* lr,
                           const aclTensor* weight_decay, const aclTensor* beta1, const aclTensor* beta2,
                           const aclTensor* eps, const aclTensor* grad, const aclTensor* max_grad_norm, bool amsgrad,
                           bool maximize) {
  if (amsgrad && max_grad_norm == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument 'maxGradNormOptional' is null; amsgrad requires it");
  }
  const std::pair<const char*, const aclTensor*> state[] = {{"varRef", var}, {"mRef", m}, {"vRef", v}};
  const std::pair<const char*, const aclTensor*> scalars[] = {{"beta1Power", beta1_power},
                                                              {"beta2Power", beta2_power},
                                                              {"lr", lr},
                                                              {"weightDecay", weight_decay},
                                                              {"beta1", beta1},
                                                              {"beta2", beta2},
                                                              {"eps", eps}};
  // CANN's order: each dtype in the list, then each the same as varRef's, then the shapes.
  for (const auto& [name, tensor] : state) CANOPY_CHECK(plan.CheckDtype(name, tensor->dtype, kAdamDtypes));
  for (const auto& [name, tensor] : scalars) CANOPY_CHECK(plan.CheckDtype(name, tensor->dtype, kAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("grad", grad->dtype, kAdamDtypes));
  const auto same_dtype = [&](const char* name, const aclTensor* tensor) {
    return CheckSameDtype(plan, name, tensor, "varRef", var);
  };
  CANOPY_CHECK(same_dtype("mRef", m));
  CANOPY_CHECK(same_dtype("vRef", v));
  for (const auto& [name, tensor] : scalars) CANOPY_CHECK(same_dtype(name, tensor));
  CANOPY_CHECK(same_dtype("grad", grad));
  if (max_grad_norm != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("maxGradNormOptional", max_grad_norm->dtype, kAdamDtypes));
    CANOPY_CHECK(same_dtype("maxGradNormOptional", max_grad_norm));
  }
  CANOPY_CHECK(plan.CheckShape("mRef", m, var->view_shape));
  CANOPY_CHECK(plan.CheckShape("vRef", v, var->view_shape));
  if (max_grad_norm != nullptr) CANOPY_CHECK(plan.CheckShape("maxGradNormOptional", max_grad_norm, var->view_shape));
  CANOPY_CHECK(plan.CheckShape("grad", grad, var->view_shape));
  for (const auto& [name, tensor] : scalars) CANOPY_CHECK(CheckOneElement(plan, name, tensor));

  AdamTensors t;
  t.var = plan.Input(var, "varRef");
  t.m = plan.Input(m, "mRef");
  t.v = plan.Input(v, "vRef");
  AdamHyperTensors hyper{.beta1_power = plan.Input(beta1_power, "beta1Power"),
                         .beta2_power = plan.Input(beta2_power, "beta2Power"),
                         .lr = plan.Input(lr, "lr"),
                         .weight_decay = plan.Input(weight_decay, "weightDecay"),
                         .beta1 = plan.Input(beta1, "beta1"),
                         .beta2 = plan.Input(beta2, "beta2"),
                         .eps = plan.Input(eps, "eps")};
  t.hyper = hyper;
  t.grad = plan.Input(grad, "grad");
  std::optional<TensorRef> max_in;
  if (max_grad_norm != nullptr) {
    max_in = plan.Input(max_grad_norm, "maxGradNormOptional");
  } else {
    plan.SkipInput();
  }
  t.var_out = plan.Output(var, "varRef");
  t.m_out = plan.Output(m, "mRef");
  t.v_out = plan.Output(v, "vRef");
  if (amsgrad) t.max_v = max_in;  // without amsgrad a given maxGradNormOptional is not read
  AdamOptions options;
  options.maximize = maximize;
  PlanAdamUpdate(plan, t, options);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ApplyAdamW, PlanApplyAdamW,
                (OpTraits{.header = "aclnnop/aclnn_apply_adam_w.h",
                          .dtypes = kAdamDtypes,
                          .in_place = true,
                          .example = "f32[2,2] f32[2,2] f32[2,2]{0:1} f32[1]{0.5:0.9} f32[1]{0.5:0.9} f32[1]{0:0.01} "
                                     "f32[1]{0:0.1} f32[1]{0.8:0.9} f32[1]{0.9:0.99} f32[1]{0:1e-6} f32[2,2] - false "
                                     "false"}),
                (aclTensor*, varRef), (aclTensor*, mRef), (aclTensor*, vRef), (const aclTensor*, beta1Power),
                (const aclTensor*, beta2Power), (const aclTensor*, lr), (const aclTensor*, weightDecay),
                (const aclTensor*, beta1), (const aclTensor*, beta2), (const aclTensor*, eps), (const aclTensor*, grad),
                (const aclTensor*, maxGradNormOptional, optional), (bool, amsgrad), (bool, maximize))
