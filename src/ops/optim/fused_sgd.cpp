// aclnnFusedSgd (torch._fused_sgd_), per element of each parameter:
//   g~ = grad / gradScale;  g = (maximize ? -g~ : g~) + weightDecay * param
//   with momentum buffers: buf = isFirstStep ? g : momentum * buf + (1 - dampening) * g,
//                          g = nesterov ? g + momentum * buf : buf
//   param -= lr * g;  grad = g~
// gathered into f32 workspace, one parallel loop (gradScale read when it runs),
// stored back through the views.
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_fused_sgd.h"
#include "adam_update.h"
#include "kernels/parallel_for.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSgdDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr float kZeroTolerance = 1e-6f;  // CANN's test for a zero momentum or dampening

struct SgdDesc {
  BufferRef param, grad, buffer, scale;  // f32 contiguous; scale one element
  bool has_buffer = false, has_scale = false;
  int64_t count = 0;
  float weight_decay = 0, momentum = 0, lr = 0, dampening = 0;
  bool nesterov = false, maximize = false, first_step = false;
};

class SgdStep final : public Step {
 public:
  explicit SgdStep(const SgdDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto* param = reinterpret_cast<float*>(context.Resolve(d_.param));
    auto* grad = reinterpret_cast<float*>(context.Resolve(d_.grad));
    auto* buffer = d_.has_buffer ? reinterpret_cast<float*>(context.Resolve(d_.buffer)) : nullptr;
    const float inv_scale = d_.has_scale ? 1.0f / *reinterpret_cast<const float*>(context.Resolve(d_.scale)) : 1.0f;
    const float sign = d_.maximize ? -1.0f : 1.0f;
    constexpr int64_t kGrain = 1 << 14;
    kernels::ParallelFor(d_.count, kGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const float unscaled = grad[i] * inv_scale;
        float g = sign * unscaled + d_.weight_decay * param[i];
        if (buffer != nullptr) {
          const float b = d_.first_step ? g : d_.momentum * buffer[i] + (1.0f - d_.dampening) * g;
          buffer[i] = b;
          g = d_.nesterov ? g + d_.momentum * b : b;
        }
        param[i] -= d_.lr * g;
        grad[i] = unscaled;
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "sgd_update count=" + std::to_string(d_.count); }

 private:
  SgdDesc d_;
};

aclnnStatus CheckSgdAttributes(Plan& plan, bool with_buffers, float weight_decay, float momentum, float lr,
                               float dampening, bool nesterov) {
  for (const auto& [name, value] :
       {std::pair{"weightDecay", weight_decay}, std::pair{"momentum", momentum}, std::pair{"lr", lr}}) {
    if (value < 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s is %g; it must not be negative", name, value);
  }
  if (nesterov && (momentum <= 0 || std::abs(dampening) >= kZeroTolerance)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "nesterov needs a positive momentum (%g) and zero dampening (%g)",
                       momentum, dampening);
  }
  if (!with_buffers && std::abs(momentum) >= kZeroTolerance) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "momentum %g needs momentumBufferListOptionalRef, which is null",
                       momentum);
  }
  if (with_buffers && std::abs(momentum) < kZeroTolerance) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "momentumBufferListOptionalRef needs a positive momentum (it is %g)",
                       momentum);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanFusedSgd(Plan& plan, const aclTensorList* params, const aclTensorList* grads,
                         const aclTensorList* buffers, const aclTensor* grad_scale, float weight_decay, float momentum,
                         float lr, float dampening, bool nesterov, bool maximize, bool is_first_step) {
  // An empty buffer list or gradScale counts as absent, as on CANN.
  const bool with_buffers = buffers != nullptr && !buffers->tensors.empty();
  CANOPY_CHECK(CheckSgdAttributes(plan, with_buffers, weight_decay, momentum, lr, dampening, nesterov));
  const size_t count = params->tensors.size();
  if (count == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "list 'paramsRef' is empty");
  if (grads->tensors.size() != count || (with_buffers && buffers->tensors.size() != count)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "gradsRef (%zu) and momentumBufferListOptionalRef must have "
                       "paramsRef's length (%zu)",
                       grads->tensors.size(), count);
  }
  const aclDataType dtype = params->tensors[0]->dtype;
  CANOPY_CHECK(plan.CheckDtype("paramsRef", dtype, kSgdDtypes));
  for (size_t i = 0; i < count; ++i) {
    for (const auto& [name, list] : {std::pair{"paramsRef", params}, std::pair{"gradsRef", grads},
                                     std::pair{"momentumBufferListOptionalRef", with_buffers ? buffers : nullptr}}) {
      if (list == nullptr) continue;
      const aclTensor* t = list->tensors[i];
      if (t->dtype != dtype) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s[%zu] is %s; every tensor must be %s", name, i,
                           DtypeName(t->dtype), DtypeName(dtype));
      }
      if (t->view_shape != params->tensors[i]->view_shape) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s[%zu] %s must have paramsRef[%zu]'s shape %s", name, i,
                           ShapeToString(t->view_shape).c_str(), i,
                           ShapeToString(params->tensors[i]->view_shape).c_str());
      }
    }
  }
  if (grad_scale != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("gradScaleOptional", grad_scale->dtype, kSgdDtypes));
    if (grad_scale->NumElements() > 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "gradScaleOptional has shape %s; it must hold one element",
                         ShapeToString(grad_scale->view_shape).c_str());
    }
  }

  const std::vector<TensorRef> p_in = plan.InputList(params, "paramsRef");
  const std::vector<TensorRef> g_in = plan.InputList(grads, "gradsRef");
  std::vector<TensorRef> b_in;
  if (buffers != nullptr) {
    b_in = plan.InputList(buffers, "momentumBufferListOptionalRef");
  } else {
    plan.SkipInput();
  }
  std::optional<TensorRef> scale;
  if (grad_scale != nullptr) {
    const TensorRef ref = plan.Input(grad_scale, "gradScaleOptional");
    if (ref.NumElements() == 1) scale = GatheredF32(plan, ref);
  } else {
    plan.SkipInput();
  }
  const std::vector<TensorRef> p_out = plan.OutputList(params, "paramsRef");
  const std::vector<TensorRef> g_out = plan.OutputList(grads, "gradsRef");
  std::vector<TensorRef> b_out;
  if (buffers != nullptr) b_out = plan.OutputList(buffers, "momentumBufferListOptionalRef");

  for (size_t i = 0; i < count; ++i) {
    if (p_in[i].NumElements() == 0) continue;
    SgdDesc desc;
    const TensorRef p = GatheredF32(plan, p_in[i]), g = GatheredF32(plan, g_in[i]);
    std::vector<TensorRef> reads = {g};
    std::optional<TensorRef> b;
    if (with_buffers) {
      b = GatheredF32(plan, b_in[i]);
      desc.buffer = b->buffer;
      desc.has_buffer = true;
      reads.push_back(*b);
    }
    if (scale) {
      desc.scale = scale->buffer;
      desc.has_scale = true;
      reads.push_back(*scale);
    }
    desc.param = p.buffer;
    desc.grad = g.buffer;
    desc.count = p.NumElements();
    desc.weight_decay = weight_decay;
    desc.momentum = momentum;
    desc.lr = lr;
    desc.dampening = dampening;
    desc.nesterov = nesterov;
    desc.maximize = maximize;
    desc.first_step = is_first_step;
    plan.AddStep(std::make_unique<SgdStep>(desc), reads, p);
    plan.Copy(p, p_out[i]);
    plan.Copy(g, g_out[i]);
    if (b) plan.Copy(*b, b_out[i]);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

// The example leaves the buffers out (momentum 0): with momentum, CANN rejects
// an absent buffer list, which the generated checks pass as a valid call.
CANOPY_ACLNN_OP(FusedSgd, PlanFusedSgd,
                (OpTraits{.header = "aclnnop/aclnn_fused_sgd.h",
                          .dtypes = kSgdDtypes,
                          .in_place = true,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) - - 0.01 0 0.1 0 false false false"}),
                (const aclTensorList*, paramsRef), (const aclTensorList*, gradsRef),
                (const aclTensorList*, momentumBufferListOptionalRef, optional),
                (const aclTensor*, gradScaleOptional, optional), (float, weightDecay), (float, momentum), (float, lr),
                (float, dampening), (bool, nesterov), (bool, maximize), (bool, isFirstStep))
