// aclnnApplyFusedEmaAdam: one Adam step in place, then an EMA of the weights:
//   mode 0 (L2): g = grad + weightDecay * var;  mode 1 (AdamW): decoupled decay
//   m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2
//   var -= lr * ((m / c1) / (sqrt(v / c2) + eps) [+ weightDecay * var, mode 1])
//   s = emaDecay * s + (1 - emaDecay) * var
// with c1, c2 = 1 - beta^step under biasCorrection, else 1; on the shared Adam
// update (adam_update.h). CANN's tiling rejects mixed dtypes and shapes (561002);
// step is read from its first element, whatever its shape.
#include "aclnnop/aclnn_apply_fused_ema_adam.h"
#include "adam_update.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kEmaAdamDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanApplyFusedEmaAdam(Plan& plan, const aclTensor* grad, const aclTensor* var, const aclTensor* m,
                                  const aclTensor* v, const aclTensor* s, const aclTensor* step, double lr,
                                  double ema_decay, double beta1, double beta2, double eps, int64_t mode,
                                  bool bias_correction, double weight_decay) {
  CANOPY_CHECK(plan.CheckDtype("grad", grad->dtype, kEmaAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("varRef", var->dtype, kEmaAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("mRef", m->dtype, kEmaAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("vRef", v->dtype, kEmaAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("sRef", s->dtype, kEmaAdamDtypes));
  CANOPY_CHECK(plan.CheckDtype("step", step->dtype, {ACL_INT64}));
  for (const auto& [name, tensor] :
       {std::pair{"varRef", var}, std::pair{"mRef", m}, std::pair{"vRef", v}, std::pair{"sRef", s}}) {
    if (tensor->dtype != grad->dtype) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "%s (%s) must have grad's dtype (%s)", name,
                         DtypeName(tensor->dtype), DtypeName(grad->dtype));
    }
    if (tensor->view_shape != grad->view_shape) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "%s %s must have grad's shape %s", name,
                         ShapeToString(tensor->view_shape).c_str(), ShapeToString(grad->view_shape).c_str());
    }
  }
  // CANN's tiling checks only step's dtype and its kernel reads the first element (the document's example
  // passes a [2, 2] step); an empty one has nothing to read.
  if (step->NumElements() < 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'step' has shape %s; it must hold a value",
                       ShapeToString(step->view_shape).c_str());
  }
  if (mode != 0 && mode != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "mode %lld is not 0 (L2) or 1 (AdamW)", static_cast<long long>(mode));
  }
  AdamTensors t;
  t.grad = plan.Input(grad, "grad");
  t.var = plan.Input(var, "varRef");
  t.m = plan.Input(m, "mRef");
  t.v = plan.Input(v, "vRef");
  t.ema = plan.Input(s, "sRef");
  t.step = plan.Input(step, "step");
  t.var_out = plan.Output(var, "varRef");
  t.m_out = plan.Output(m, "mRef");
  t.v_out = plan.Output(v, "vRef");
  t.ema_out = plan.Output(s, "sRef");
  AdamOptions options;
  options.lr = static_cast<float>(lr);
  options.beta1 = static_cast<float>(beta1);
  options.beta2 = static_cast<float>(beta2);
  options.eps = static_cast<float>(eps);
  options.weight_decay = static_cast<float>(weight_decay);
  options.l2 = mode == 0;
  options.bias_correction = bias_correction;
  options.ema_decay = static_cast<float>(ema_decay);
  PlanAdamUpdate(plan, t, options);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ApplyFusedEmaAdam, PlanApplyFusedEmaAdam,
                (OpTraits{
                    .header = "aclnnop/aclnn_apply_fused_ema_adam.h",
                    .dtypes = kEmaAdamDtypes,
                    .example = "f32[2,3] f32[2,3] f32[2,3] f32[2,3]{0:1} f32[2,3] i64[1]{1:3} 0.001 0.5 0.9 0.999 "
                               "1e-8 1 true 0.01"}),
                (const aclTensor*, grad), (aclTensor*, varRef), (aclTensor*, mRef), (aclTensor*, vRef),
                (aclTensor*, sRef), (const aclTensor*, step), (double, lr), (double, emaDecay), (double, beta1),
                (double, beta2), (double, eps), (int64_t, mode), (bool, biasCorrection), (double, weightDecay))
