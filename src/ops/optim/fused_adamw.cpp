// aclnnFusedAdamw (torch._fused_adamw_): ApplyAdamWV2's step for each parameter
// of the lists, with the grads divided by gradScaleOptional and the whole step
// skipped when foundInfOptional holds 1 (both read when the step runs), on the
// shared Adam update (adam_update.h).
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_fused_adamw.h"
#include "adam_update.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFusedAdamwDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kStepDtypes = {ACL_FLOAT, ACL_INT64};

aclnnStatus CheckCoefficients(Plan& plan, double lr, double beta1, double beta2, double weight_decay) {
  for (const auto& [name, value] : {std::pair{"lr", lr}, std::pair{"beta1", beta1}, std::pair{"beta2", beta2},
                                    std::pair{"weightDecay", weight_decay}}) {
    if (!(value >= 0)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s is %g; it must not be negative", name, value);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanFusedAdamw(Plan& plan, const aclTensorList* params, const aclTensorList* grads,
                           const aclTensorList* exp_avgs, const aclTensorList* exp_avg_sqs,
                           const aclTensorList* max_exp_avg_sqs, const aclTensorList* state_steps,
                           const aclTensor* grad_scale, const aclTensor* found_inf, double lr, double beta1,
                           double beta2, double weight_decay, double eps, bool amsgrad, bool maximize) {
  CANOPY_CHECK(CheckCoefficients(plan, lr, beta1, beta2, weight_decay));
  if (amsgrad && max_exp_avg_sqs == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "amsgrad needs maxExpAvgSqsRef, which is null");
  }
  const size_t count = params->tensors.size();
  if (count == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "list 'paramsRef' is empty");
  for (const auto& [name, list] :
       {std::pair{"grads", grads}, std::pair{"expAvgsRef", exp_avgs}, std::pair{"expAvgSqsRef", exp_avg_sqs},
        std::pair{"stateSteps", state_steps}, std::pair{"maxExpAvgSqsRef", max_exp_avg_sqs}}) {
    if (list != nullptr && list->tensors.size() != count) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "list '%s' has %zu tensors; paramsRef has %zu", name,
                         list->tensors.size(), count);
    }
  }
  const aclDataType dtype = params->tensors[0]->dtype;
  CANOPY_CHECK(plan.CheckDtype("paramsRef", dtype, kFusedAdamwDtypes));
  CANOPY_CHECK(plan.CheckDtype("stateSteps", state_steps->tensors[0]->dtype, kStepDtypes));
  for (size_t i = 0; i < count; ++i) {
    const Shape& shape = params->tensors[i]->view_shape;
    if (state_steps->tensors[i]->dtype != state_steps->tensors[0]->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "stateSteps[%zu] is %s; every step must have one dtype", i,
                         DtypeName(state_steps->tensors[i]->dtype));
    }
    if (state_steps->tensors[i]->NumElements() != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "stateSteps[%zu] has shape %s; it must hold one element", i,
                         ShapeToString(state_steps->tensors[i]->view_shape).c_str());
    }
    for (const auto& [name, list] :
         {std::pair{"paramsRef", params}, std::pair{"grads", grads}, std::pair{"expAvgsRef", exp_avgs},
          std::pair{"expAvgSqsRef", exp_avg_sqs}, std::pair{"maxExpAvgSqsRef", max_exp_avg_sqs}}) {
      if (list == nullptr) continue;
      const aclTensor* t = list->tensors[i];
      if (t->dtype != dtype) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s[%zu] is %s; every tensor must be %s", name, i,
                           DtypeName(t->dtype), DtypeName(dtype));
      }
      // CANN logs a maxExpAvgSqsRef of another shape and goes on; Canopy rejects it.
      if (t->view_shape != shape) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s[%zu] %s must have paramsRef[%zu]'s shape %s", name, i,
                           ShapeToString(t->view_shape).c_str(), i, ShapeToString(shape).c_str());
      }
    }
  }
  for (const auto& [name, tensor] :
       {std::pair{"gradScaleOptional", grad_scale}, std::pair{"foundInfOptional", found_inf}}) {
    if (tensor == nullptr) continue;
    CANOPY_CHECK(plan.CheckDtype(name, tensor->dtype, tensor == grad_scale ? kFusedAdamwDtypes : DtypeSet{ACL_FLOAT}));
    if (tensor->NumElements() > 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has shape %s; it must hold one element", name,
                         ShapeToString(tensor->view_shape).c_str());
    }
  }

  const std::vector<TensorRef> p_in = plan.InputList(params, "paramsRef");
  const std::vector<TensorRef> g_in = plan.InputList(grads, "grads");
  const std::vector<TensorRef> m_in = plan.InputList(exp_avgs, "expAvgsRef");
  const std::vector<TensorRef> v_in = plan.InputList(exp_avg_sqs, "expAvgSqsRef");
  std::vector<TensorRef> max_in;
  if (max_exp_avg_sqs != nullptr) {
    max_in = plan.InputList(max_exp_avg_sqs, "maxExpAvgSqsRef");
  } else {
    plan.SkipInput();
  }
  const std::vector<TensorRef> steps = plan.InputList(state_steps, "stateSteps");
  // An empty gradScale or foundInf counts as absent, as on CANN.
  std::optional<TensorRef> scale, found;
  if (grad_scale != nullptr) {
    const TensorRef ref = plan.Input(grad_scale, "gradScaleOptional");
    if (ref.NumElements() == 1) scale = ref;
  } else {
    plan.SkipInput();
  }
  if (found_inf != nullptr) {
    const TensorRef ref = plan.Input(found_inf, "foundInfOptional");
    if (ref.NumElements() == 1) found = ref;
  } else {
    plan.SkipInput();
  }
  const std::vector<TensorRef> p_out = plan.OutputList(params, "paramsRef");
  const std::vector<TensorRef> m_out = plan.OutputList(exp_avgs, "expAvgsRef");
  const std::vector<TensorRef> v_out = plan.OutputList(exp_avg_sqs, "expAvgSqsRef");
  std::vector<TensorRef> max_out;
  if (max_exp_avg_sqs != nullptr) max_out = plan.OutputList(max_exp_avg_sqs, "maxExpAvgSqsRef");

  AdamOptions options;
  options.lr = static_cast<float>(lr);
  options.beta1 = static_cast<float>(beta1);
  options.beta2 = static_cast<float>(beta2);
  options.eps = static_cast<float>(eps);
  options.weight_decay = static_cast<float>(weight_decay);
  options.maximize = maximize;
  for (size_t i = 0; i < count; ++i) {
    AdamTensors t;
    t.var = p_in[i];
    t.grad = g_in[i];
    t.m = m_in[i];
    t.v = v_in[i];
    t.step = steps[i];
    t.var_out = p_out[i];
    t.m_out = m_out[i];
    t.v_out = v_out[i];
    if (amsgrad) {
      t.max_v = max_in[i];
      t.max_v_out = max_out[i];
    }
    t.grad_scale = scale;
    t.found_inf = found;
    PlanAdamUpdate(plan, t, options);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(FusedAdamw, PlanFusedAdamw,
                (OpTraits{
                    .header = "aclnnop/aclnn_fused_adamw.h",
                    .dtypes = kFusedAdamwDtypes,
                    .in_place = true,
                    .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3]{0:1},f32[4]{0:1}) - "
                               "(f32[1]{1:3},f32[1]{1:3}) - - 0.001 0.9 0.999 0.01 1e-8 false false"}),
                (const aclTensorList*, paramsRef), (const aclTensorList*, grads), (const aclTensorList*, expAvgsRef),
                (const aclTensorList*, expAvgSqsRef), (const aclTensorList*, maxExpAvgSqsRef, optional),
                (const aclTensorList*, stateSteps), (const aclTensor*, gradScaleOptional, optional),
                (const aclTensor*, foundInfOptional, optional), (double, lr), (double, beta1), (double, beta2),
                (double, weightDecay), (double, eps), (bool, amsgrad), (bool, maximize))
