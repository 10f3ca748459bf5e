// aclnnApplyAdamD: one Adam step in TensorFlow's form, every hyperparameter a one-element tensor
// read when the step runs, written to varOut, mOut and vOut (which may be the inputs' memory):
//   lr_t = lr * sqrt(1 - beta2Power) / (1 - beta1Power)   (this step's powers)
//   m = beta1 * m + (1 - beta1) * grad;  v = beta2 * v + (1 - beta2) * grad^2
//   var = var - lr_t * m' / (sqrt(v) + epsilon),  m' = useNesterov ? beta1 * m + (1 - beta1) * grad : m
// On Atlas A2 this is CANN's experimental/optim/apply_adam_d (its op definition names ascend910b;
// optim/apply_adam_d and aclnnApplyAdam are Ascend 950 only). All tensors share var's dtype;
// computed in f32 on the shared Adam update (adam_update.h). useLocking does not change the result.
#include <cstddef>
#include <iterator>
#include <optional>
#include <utility>

#include "aclnnop/aclnn_apply_adam_d.h"
#include "adam_update.h"
#include "ops/framework/aclnn_op.h"
#include "ops/shape/shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanApplyAdamD(Plan& plan, const aclTensor* var, const aclTensor* m, const aclTensor* v,
                           const aclTensor* beta1_power, const aclTensor* beta2_power, const aclTensor* lr,
                           const aclTensor* beta1, const aclTensor* beta2, const aclTensor* epsilon,
                           const aclTensor* grad, bool /*use_locking*/, bool use_nesterov, const aclTensor* var_out,
                           const aclTensor* m_out, const aclTensor* v_out) {
  using Named = std::pair<const char*, const aclTensor*>;
  const Named scalars[] = {
      {"beta1Power", beta1_power}, {"beta2Power", beta2_power}, {"lr", lr}, {"beta1", beta1}, {"beta2", beta2},
      {"epsilon", epsilon}};
  const Named state[] = {{"m", m}, {"v", v}, {"grad", grad}, {"varOut", var_out}, {"mOut", m_out}, {"vOut", v_out}};
  // CANN's order: var's dtype in the list, every other one var's (m, v, the one-element tensors, grad, the
  // outputs), then the shapes, then the one-element tensors' sizes.
  CANOPY_CHECK(plan.CheckDtype("var", var->dtype, kAdamDtypes));
  const auto same_dtype = [&](const Named& named) {
    return CheckSameDtype(plan, named.first, named.second, "var", var);
  };
  CANOPY_CHECK(same_dtype(state[0]));
  CANOPY_CHECK(same_dtype(state[1]));
  for (const Named& named : scalars) CANOPY_CHECK(same_dtype(named));
  for (size_t i = 2; i < std::size(state); ++i) CANOPY_CHECK(same_dtype(state[i]));
  for (const auto& [name, tensor] : state) CANOPY_CHECK(plan.CheckShape(name, tensor, var->view_shape));
  for (const auto& [name, tensor] : scalars) CANOPY_CHECK(CheckOneElement(plan, name, tensor));

  AdamTensors t;
  t.var = plan.Input(var, "var");
  t.m = plan.Input(m, "m");
  t.v = plan.Input(v, "v");
  AdamHyperTensors hyper{.beta1_power = plan.Input(beta1_power, "beta1Power"),
                         .beta2_power = plan.Input(beta2_power, "beta2Power"),
                         .lr = plan.Input(lr, "lr"),
                         .weight_decay = std::nullopt,
                         .beta1 = plan.Input(beta1, "beta1"),
                         .beta2 = plan.Input(beta2, "beta2"),
                         .eps = plan.Input(epsilon, "epsilon")};
  t.hyper = hyper;
  t.grad = plan.Input(grad, "grad");
  t.var_out = plan.Output(var_out, "varOut");
  t.m_out = plan.Output(m_out, "mOut");
  t.v_out = plan.Output(v_out, "vOut");
  AdamOptions options;
  options.current_powers = true;
  options.nesterov = use_nesterov;
  PlanAdamUpdate(plan, t, options);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ApplyAdamD, PlanApplyAdamD,
                (OpTraits{.header = "aclnnop/aclnn_apply_adam_d.h",
                          .dtypes = kAdamDtypes,
                          .example = "f32[2,2] f32[2,2] f32[2,2]{0:1} f32[1]{0.5:0.9} f32[1]{0.5:0.9} f32[1]{0:0.01} "
                                     "f32[1]{0.8:0.9} f32[1]{0.9:0.99} f32[1]{0:1e-6} f32[2,2] false false f32[2,2] "
                                     "f32[2,2] f32[2,2]"}),
                (const aclTensor*, var), (const aclTensor*, m), (const aclTensor*, v), (const aclTensor*, beta1Power),
                (const aclTensor*, beta2Power), (const aclTensor*, lr), (const aclTensor*, beta1),
                (const aclTensor*, beta2), (const aclTensor*, epsilon), (const aclTensor*, grad), (bool, useLocking),
                (bool, useNesterov), (aclTensor*, varOut), (aclTensor*, mOut), (aclTensor*, vOut))
