// aclnnApplyAdamWV2: one step of torch.optim.AdamW, in place:
//   g = maximize ? -grad : grad;  var *= 1 - lr * weightDecay
//   m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2
//   amsgrad: maxGradNorm = max(maxGradNorm, v), which then stands for v below
//   var -= lr / (1 - beta1^step) * m / (sqrt(v) / sqrt(1 - beta2^step) + eps)
// The tensors are gathered into f32 workspace (any mix of FLOAT, FLOAT16 and
// BFLOAT16, as CANN casts them), updated by one vectorisable loop that reads step
// when it runs, and stored back through the views.
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAdamDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kStepDtypes = {ACL_FLOAT, ACL_INT64};

struct AdamWDesc {
  BufferRef var, m, v, max_v, grad, step;  // f32, contiguous, `count` elements (step: one)
  int64_t count = 0;
  bool amsgrad = false;
  bool maximize = false;
  float lr = 0, beta1 = 0, beta2 = 0, weight_decay = 0, eps = 0;
};

class AdamWStep final : public Step {
 public:
  explicit AdamWStep(const AdamWDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto* var = reinterpret_cast<float*>(context.Resolve(d_.var));
    auto* m = reinterpret_cast<float*>(context.Resolve(d_.m));
    auto* v = reinterpret_cast<float*>(context.Resolve(d_.v));
    auto* max_v = d_.amsgrad ? reinterpret_cast<float*>(context.Resolve(d_.max_v)) : nullptr;
    const auto* grad = reinterpret_cast<const float*>(context.Resolve(d_.grad));
    const double step = *reinterpret_cast<const float*>(context.Resolve(d_.step));
    const float bias1 = static_cast<float>(1.0 - std::pow(static_cast<double>(d_.beta1), step));
    const float bias2_sqrt = static_cast<float>(std::sqrt(1.0 - std::pow(static_cast<double>(d_.beta2), step)));
    const float step_size = d_.lr / bias1;
    const float decay = 1.0f - d_.lr * d_.weight_decay;
    const float sign = d_.maximize ? -1.0f : 1.0f;
    constexpr int64_t kGrain = 1 << 14;
    kernels::ParallelFor(d_.count, kGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const float g = sign * grad[i];
        const float m_i = d_.beta1 * m[i] + (1.0f - d_.beta1) * g;
        const float v_i = d_.beta2 * v[i] + (1.0f - d_.beta2) * g * g;
        m[i] = m_i;
        v[i] = v_i;
        float second = v_i;
        if (max_v != nullptr) {
          second = std::fmax(max_v[i], v_i);
          max_v[i] = second;
        }
        const float denom = std::sqrt(second) / bias2_sqrt + d_.eps;
        var[i] = var[i] * decay - step_size * m_i / denom;
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "adamw_step count=" + std::to_string(d_.count); }

 private:
  AdamWDesc d_;
};

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
  if (var_in.NumElements() == 0) return ACLNN_SUCCESS;

  const auto gather = [&](const TensorRef& src) {
    TensorRef dst = plan.Temporary(ACL_FLOAT, src.shape);
    plan.Copy(src, dst);
    return dst;
  };
  AdamWDesc desc;
  const TensorRef var_f = gather(var_in), m_f = gather(m_in), v_f = gather(v_in), grad_f = gather(grad_in);
  const TensorRef step_f = gather(step_in);
  std::optional<TensorRef> max_f;
  if (amsgrad) max_f = gather(*max_in);
  desc.var = var_f.buffer;
  desc.m = m_f.buffer;
  desc.v = v_f.buffer;
  desc.grad = grad_f.buffer;
  desc.step = step_f.buffer;
  if (max_f) desc.max_v = max_f->buffer;
  desc.count = var_in.NumElements();
  desc.amsgrad = amsgrad;
  desc.maximize = maximize;
  desc.lr = lr;
  desc.beta1 = beta1;
  desc.beta2 = beta2;
  desc.weight_decay = weight_decay;
  desc.eps = eps;
  std::vector<TensorRef> reads = {m_f, v_f, grad_f, step_f};
  if (max_f) reads.push_back(*max_f);
  plan.AddStep(std::make_unique<AdamWStep>(desc), reads, var_f);
  plan.Copy(var_f, var_out);
  plan.Copy(m_f, m_out);
  plan.Copy(v_f, v_out);
  // Without amsgrad CANN leaves a given maxGradNormOptionalRef as it is.
  if (max_f) plan.Copy(*max_f, *max_out);
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
