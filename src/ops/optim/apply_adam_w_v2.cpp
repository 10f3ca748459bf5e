// aclnnApplyAdamWV2: one step of torch.optim.AdamW, in place:
//   g = maximize ? -grad : grad;  var *= 1 - lr * weightDecay
//   m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2
//   amsgrad: maxGradNorm = max(maxGradNorm, v), which then stands for v below
//   var -= lr / (1 - beta1^step) * m / (sqrt(v) / sqrt(1 - beta2^step) + eps)
// Any mix of FLOAT, FLOAT16 and BFLOAT16 (CANN casts them to FLOAT), on the
// shared Adam update (adam_update.h).
#include <optional>

#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "adam_update.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAdamDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kStepDtypes = {ACL_FLOAT, ACL_INT64};

aclnnStatus PlanApplyAdamWV2(Plan& plan, const aclTensor* var, const aclTensor* m, const aclTensor* v,
                             const aclTensor* max_grad_norm, const aclTensor* grad, const aclTensor* step, float lr,
                             float beta1, float beta2, float weight_decay, float eps, bool amsgrad, bool maximize) {
  if (amsgrad && max_grad_norm == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument 'maxGradNormOptionalRef' is null; amsgrad requires it");
  }
  CANOPY_CHECK(plan.CheckDtype("varRef", var->dtype, kAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("mRef", m->dtype, kAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("vRef", v->dtype, kAdamDtypes));
  if (max_grad_norm != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("maxGradNormOptionalRef", max_grad_norm->dtype, kAdamDtypes));
  }
  CANOPY_CHECK(plan.CheckDtype("grad", grad->dtype, kAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("step", step->dtype, kStepDtypes));
  CANOPY_CHECK(plan.CheckShape("mRef", m, var->view_shape));
  CANOPY_CHECK(plan.CheckShape("vRef", v, var->view_shape));
  if (max_grad_norm != nullptr) CANOPY_CHECK(plan.CheckShape("maxGradNormOptionalRef", max_grad_norm, var->view_shape));
  CANOPY_CHECK(plan.CheckShape("grad", grad, var->view_shape));
  if (step->NumElements() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'step' has shape %s; it must hold one element",
                       ShapeToString(step->view_shape).c_str());
  }

  const TensorRef var_in = plan.Input(var, "varRef");
  const TensorRef m_in = plan.Input(m, "mRef");
  const TensorRef v_in = plan.Input(v, "vRef");
  std::optional<TensorRef> max_in;
  if (max_grad_norm != nullptr) {
    max_in = plan.Input(max_grad_norm, "maxGradNormOptionalRef");
  } else {
    plan.SkipInput();
  }
  const TensorRef grad_in = plan.Input(grad, "grad");
  const TensorRef step_in = plan.Input(step, "step");
  const TensorRef var_out = plan.Output(var, "varRef");
  const TensorRef m_out = plan.Output(m, "mRef");
  const TensorRef v_out = plan.Output(v, "vRef");
  std::optional<TensorRef> max_out;
  if (max_grad_norm != nullptr) {
    max_out = plan.Output(max_grad_norm, "maxGradNormOptionalRef");
  } else {
    plan.SkipOutput();
  }
  AdamTensors tensors;
  tensors.var = var_in;
  tensors.m = m_in;
  tensors.v = v_in;
  tensors.grad = grad_in;
  tensors.step = step_in;
  tensors.var_out = var_out;
  tensors.m_out = m_out;
  tensors.v_out = v_out;
  // Without amsgrad CANN leaves a given maxGradNormOptionalRef as it is.
  if (amsgrad) {
    tensors.max_v = max_in;
    tensors.max_v_out = max_out;
  }
  AdamOptions options;
  options.lr = lr;
  options.beta1 = beta1;
  options.beta2 = beta2;
  options.eps = eps;
  options.weight_decay = weight_decay;
  options.maximize = maximize;
  PlanAdamUpdate(plan, tensors, options);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ApplyAdamWV2, PlanApplyAdamWV2,
                (OpTraits{.header = "aclnnop/aclnn_apply_adam_w_v2.h",
                          .dtypes = kAdamDtypes,
                          .in_place = true,
                          .example = "f32[2,3] f32[2,3] f32[2,3]{0:1} - f32[2,3] f32[1]{1:3} 0.001 0.9 0.999 0.01 1e-8 "
                                     "false false"}),
                (aclTensor*, varRef), (aclTensor*, mRef), (aclTensor*, vRef),
                (aclTensor*, maxGradNormOptionalRef, optional), (const aclTensor*, grad), (const aclTensor*, step),
                (float, lr), (float, beta1), (float, beta2), (float, weightDecay), (float, eps), (bool, amsgrad),
                (bool, maximize))
