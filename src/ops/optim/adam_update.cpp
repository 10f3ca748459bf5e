#include "adam_update.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/parallel_for.h"

namespace canopy::ops {
namespace {

struct AdamDesc {
  BufferRef var, m, v, grad, step, max_v, ema;  // f32, contiguous, `count` elements (step: one)
  BufferRef grad_scale, found_inf;              // f32, one element each
  BufferRef beta1_power, beta2_power, lr, weight_decay, beta1, beta2, eps;  // with has_hyper: f32, one each
  bool has_max_v = false, has_ema = false, has_grad_scale = false, has_found_inf = false, has_hyper = false;
  bool has_weight_decay = false;  // with has_hyper
  int64_t count = 0;
  AdamOptions options;
};

class AdamStep final : public Step {
 public:
  explicit AdamStep(const AdamDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto scalar = [&context](const BufferRef& buffer) {
      return *reinterpret_cast<const float*>(context.Resolve(buffer));
    };
    AdamOptions o = d_.options;
    double c1 = 1.0, c2 = 1.0;
    if (d_.has_hyper) {
      o.lr = scalar(d_.lr);
      if (d_.has_weight_decay) o.weight_decay = scalar(d_.weight_decay);
      o.beta1 = scalar(d_.beta1);
      o.beta2 = scalar(d_.beta2);
      o.eps = scalar(d_.eps);
      const double power_factor1 = o.current_powers ? 1.0 : o.beta1;
      const double power_factor2 = o.current_powers ? 1.0 : o.beta2;
      c1 = 1.0 - static_cast<double>(scalar(d_.beta1_power)) * power_factor1;
      c2 = 1.0 - static_cast<double>(scalar(d_.beta2_power)) * power_factor2;
    } else if (o.bias_correction) {
      const double step = scalar(d_.step);
      c1 = 1.0 - std::pow(static_cast<double>(o.beta1), step);
      c2 = 1.0 - std::pow(static_cast<double>(o.beta2), step);
    }
    if (d_.has_found_inf && *reinterpret_cast<const float*>(context.Resolve(d_.found_inf)) == 1.0f) {
      return ACLNN_SUCCESS;  // an overflow was found: this step is skipped
    }
    const float grad_factor =
        d_.has_grad_scale ? 1.0f / *reinterpret_cast<const float*>(context.Resolve(d_.grad_scale)) : 1.0f;
    auto* var = reinterpret_cast<float*>(context.Resolve(d_.var));
    auto* m = reinterpret_cast<float*>(context.Resolve(d_.m));
    auto* v = reinterpret_cast<float*>(context.Resolve(d_.v));
    auto* max_v = d_.has_max_v ? reinterpret_cast<float*>(context.Resolve(d_.max_v)) : nullptr;
    auto* ema = d_.has_ema ? reinterpret_cast<float*>(context.Resolve(d_.ema)) : nullptr;
    const auto* grad = reinterpret_cast<const float*>(context.Resolve(d_.grad));
    // TensorFlow's form folds sqrt(c2) into the step size and leaves eps unscaled.
    const float step_size = static_cast<float>(o.current_powers ? o.lr * std::sqrt(c2) / c1 : o.lr / c1);
    const float inv_sqrt_c2 = o.current_powers ? 1.0f : static_cast<float>(1.0 / std::sqrt(c2));
    const float decay = o.l2 ? 1.0f : 1.0f - o.lr * o.weight_decay;
    const float l2 = o.l2 ? o.weight_decay : 0.0f;
    const float sign = (o.maximize ? -1.0f : 1.0f) * grad_factor;
    constexpr int64_t kGrain = 1 << 14;
    kernels::ParallelFor(d_.count, kGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const float g = sign * grad[i] + l2 * var[i];
        const float m_i = o.beta1 * m[i] + (1.0f - o.beta1) * g;
        const float v_i = o.beta2 * v[i] + (1.0f - o.beta2) * g * g;
        m[i] = m_i;
        v[i] = v_i;
        float second = v_i;
        if (max_v != nullptr) {
          second = std::fmax(max_v[i], v_i);
          max_v[i] = second;
        }
        const float direction = o.nesterov ? o.beta1 * m_i + (1.0f - o.beta1) * g : m_i;
        const float updated = var[i] * decay - step_size * direction / (std::sqrt(second) * inv_sqrt_c2 + o.eps);
        var[i] = updated;
        if (ema != nullptr) ema[i] = o.ema_decay * ema[i] + (1.0f - o.ema_decay) * updated;
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "adam_update count=" + std::to_string(d_.count); }

 private:
  AdamDesc d_;
};

}  // namespace

aclnnStatus CheckOneElement(Plan& plan, const char* name, const aclTensor* tensor) {
  if (tensor->NumElements() == 1) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must hold one element", name,
                     ShapeToString(tensor->view_shape).c_str());
}

TensorRef WorkingCopy(Plan& plan, const TensorRef& src, aclDataType dtype) {
  TensorRef dst = plan.Temporary(dtype, src.shape);
  plan.Copy(src, dst);
  return dst;
}

void PlanAdamUpdate(Plan& plan, const AdamTensors& t, const AdamOptions& options) {
  if (t.var.NumElements() == 0) return;
  const TensorRef var = GatheredF32(plan, t.var), m = GatheredF32(plan, t.m), v = GatheredF32(plan, t.v);
  const TensorRef grad = GatheredF32(plan, t.grad);
  std::vector<TensorRef> reads = {m, v, grad};
  AdamDesc desc;
  desc.var = var.buffer;
  desc.m = m.buffer;
  desc.v = v.buffer;
  desc.grad = grad.buffer;
  const auto gather_scalar = [&plan, &reads](const TensorRef& src, BufferRef& dst) {
    const TensorRef gathered = GatheredF32(plan, src);
    dst = gathered.buffer;
    reads.push_back(gathered);
  };
  if (t.step) gather_scalar(*t.step, desc.step);
  if (t.hyper) {
    desc.has_hyper = true;
    gather_scalar(t.hyper->beta1_power, desc.beta1_power);
    gather_scalar(t.hyper->beta2_power, desc.beta2_power);
    gather_scalar(t.hyper->lr, desc.lr);
    if (t.hyper->weight_decay) {
      desc.has_weight_decay = true;
      gather_scalar(*t.hyper->weight_decay, desc.weight_decay);
    }
    gather_scalar(t.hyper->beta1, desc.beta1);
    gather_scalar(t.hyper->beta2, desc.beta2);
    gather_scalar(t.hyper->eps, desc.eps);
  }
  desc.count = t.var.NumElements();
  desc.options = options;
  std::optional<TensorRef> max_v, ema;
  if (t.max_v) {
    max_v = GatheredF32(plan, *t.max_v);
    desc.max_v = max_v->buffer;
    desc.has_max_v = true;
    reads.push_back(*max_v);
  }
  if (t.ema) {
    ema = GatheredF32(plan, *t.ema);
    desc.ema = ema->buffer;
    desc.has_ema = true;
    reads.push_back(*ema);
  }
  if (t.grad_scale) {
    const TensorRef scale = GatheredF32(plan, *t.grad_scale);
    desc.grad_scale = scale.buffer;
    desc.has_grad_scale = true;
    reads.push_back(scale);
  }
  if (t.found_inf) {
    const TensorRef found = GatheredF32(plan, *t.found_inf);
    desc.found_inf = found.buffer;
    desc.has_found_inf = true;
    reads.push_back(found);
  }
  plan.AddStep(std::make_unique<AdamStep>(desc), reads, var);
  plan.Copy(var, t.var_out);
  plan.Copy(m, t.m_out);
  plan.Copy(v, t.v_out);
  if (max_v && t.max_v_out) plan.Copy(*max_v, *t.max_v_out);
  if (ema) plan.Copy(*ema, *t.ema_out);
}

}  // namespace canopy::ops
