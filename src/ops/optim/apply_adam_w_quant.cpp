// aclnnApplyAdamWQuant: an AdamW step with 8-bit blockwise states (bitsandbytes' Adam8bit), in place.
// Per block of 256 elements b, with t = step + 1, c1 = 1 - beta1^t, c2 = sqrt(1 - beta2^t):
//   m = qmapM[mRef] * absmaxM[b];  v = qmapV[vRef] * absmaxV[b];  g = grad * gnormScale
//   m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2
//   var += -lr * c2 / c1 * m / (sqrt(v) + eps * c2);  then var *= 1 - lr * weightDecay when weightDecay > 0
//   absmaxM[b] = max |m|, absmaxV[b] = max v (NaN where the block holds one); mRef, vRef = the nearest
//   qmap entry to m / absmaxM[b], v / absmaxV[b] (an absmax of 0 divides by 1; a NaN quotient takes code 0)
// and, where qmapM has negative entries, an m code whose entry has the other sign than m moves one entry
// towards m's sign. These follow CANN's reference for the op (tests/assets/golden.py): its A2 kernel
// moves a positive m's code down rather than up there, which we take for a slip. Computed in f32.
// The aclnn entry is generated from the op definition: the tiling's checks report 561002.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_adam_w_quant.h"
#include "adam_update.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kVarDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kQuantBlock = 256;  // the only blockSize the tiling takes
constexpr int64_t kQmapSize = 256;    // entries of qmapM and qmapV (8-bit codes)

struct AdamQuantDesc {
  BufferRef var, grad, m_codes, v_codes, qmap_m, qmap_v, absmax_m, absmax_v, step;  // contiguous working copies
  int64_t count = 0;
  float lr = 0, beta1 = 0, beta2 = 0, weight_decay = 0, eps = 0, gnorm_scale = 0;
};

// The index of the qmap entry nearest to x (the lower one on a tie), by bisection of the ascending map.
int NearestCode(const float* qmap, float x) {
  if (std::isnan(x)) return 0;  // every distance NaN: argmin's first index, as the reference's torch.argmin
  int lower = 0, upper = kQmapSize - 1;
  while (upper - lower > 1) {
    const int pivot = (lower + upper) / 2;
    if (x > qmap[pivot]) {
      lower = pivot;
    } else {
      upper = pivot;
    }
  }
  return std::fabs(x - qmap[lower]) <= std::fabs(x - qmap[upper]) ? lower : upper;
}

class AdamQuantStep final : public Step {
 public:
  explicit AdamQuantStep(const AdamQuantDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto f32 = [&context](const BufferRef& buffer) { return reinterpret_cast<float*>(context.Resolve(buffer)); };
    float* var = f32(d_.var);
    const float* grad = f32(d_.grad);
    auto* m_codes = reinterpret_cast<uint8_t*>(context.Resolve(d_.m_codes));
    auto* v_codes = reinterpret_cast<uint8_t*>(context.Resolve(d_.v_codes));
    const float* qmap_m = f32(d_.qmap_m);
    const float* qmap_v = f32(d_.qmap_v);
    float* absmax_m = f32(d_.absmax_m);
    float* absmax_v = f32(d_.absmax_v);
    const double t = static_cast<double>(*f32(d_.step)) + 1.0;
    const double c1 = 1.0 - std::pow(static_cast<double>(d_.beta1), t);
    const double c2 = std::sqrt(1.0 - std::pow(static_cast<double>(d_.beta2), t));
    const auto step_size = static_cast<float>(-static_cast<double>(d_.lr) * c2 / c1);
    const auto eps = static_cast<float>(d_.eps * c2);
    const float decay = 1.0f - d_.lr * d_.weight_decay;
    const bool signed_m = std::any_of(qmap_m, qmap_m + kQmapSize, [](float q) { return q < 0.0f; });
    const int64_t blocks = (d_.count + kQuantBlock - 1) / kQuantBlock;
    kernels::ParallelFor(blocks, 1, [&](int64_t block_begin, int64_t block_end) {
      std::array<float, kQuantBlock> m{}, v{};
      for (int64_t b = block_begin; b < block_end; ++b) {
        const int64_t begin = b * kQuantBlock;
        const int64_t size = std::min(kQuantBlock, d_.count - begin);
        // The reference's torch.max: a NaN anywhere in the block is the block's maximum.
        float max_m = 0.0f, max_v = -INFINITY;
        const auto max_of = [](float a, float b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); };
        for (int64_t i = 0; i < size; ++i) {
          const int64_t at = begin + i;
          const float g = grad[at] * d_.gnorm_scale;
          m[i] = d_.beta1 * (qmap_m[m_codes[at]] * absmax_m[b]) + (1.0f - d_.beta1) * g;
          v[i] = d_.beta2 * (qmap_v[v_codes[at]] * absmax_v[b]) + (1.0f - d_.beta2) * g * g;
          float updated = var[at] + step_size * m[i] / (std::sqrt(v[i]) + eps);
          if (d_.weight_decay > 0.0f) updated *= decay;
          var[at] = updated;
          max_m = max_of(max_m, std::fabs(m[i]));
          max_v = max_of(max_v, v[i]);
        }
        absmax_m[b] = max_m;
        absmax_v[b] = max_v;
        const float scale_m = max_m == 0.0f ? 1.0f : max_m, scale_v = max_v == 0.0f ? 1.0f : max_v;
        for (int64_t i = 0; i < size; ++i) {
          const float normal_m = m[i] / scale_m;
          int code = NearestCode(qmap_m, normal_m);
          if (signed_m && normal_m * qmap_m[code] < 0.0f) code = std::clamp(code + (normal_m > 0.0f ? 1 : -1), 0, 255);
          m_codes[begin + i] = static_cast<uint8_t>(code);
          v_codes[begin + i] = static_cast<uint8_t>(NearestCode(qmap_v, v[i] / scale_v));
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "adam_w_quant count=" + std::to_string(d_.count); }

 private:
  AdamQuantDesc d_;
};

aclnnStatus PlanApplyAdamWQuant(Plan& plan, const aclTensor* var, const aclTensor* grad, const aclTensor* m,
                                const aclTensor* v, const aclTensor* qmap_m, const aclTensor* qmap_v,
                                const aclTensor* absmax_m, const aclTensor* absmax_v, const aclTensor* step, double lr,
                                double beta1, double beta2, double weight_decay, double eps, double gnorm_scale,
                                const char* /*quantModeOptional: reserved*/, int64_t block_size) {
  // The op definition's dtypes (161002): var and grad of one of its three rows, the rest fixed.
  CANOPY_CHECK(plan.CheckDtype("varRef", var->dtype, kVarDtypes));
  CANOPY_CHECK(plan.CheckDtype("grad", grad->dtype, {var->dtype}));
  CANOPY_CHECK(plan.CheckDtype("mRef", m->dtype, {ACL_UINT8}));
  CANOPY_CHECK(plan.CheckDtype("vRef", v->dtype, {ACL_UINT8}));
  CANOPY_CHECK(plan.CheckDtype("qmapM", qmap_m->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("qmapV", qmap_v->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("absmaxMRef", absmax_m->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("absmaxVRef", absmax_v->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("step", step->dtype, {ACL_INT64}));
  // The tiling's checks (561002), in its order.
  if (block_size != kQuantBlock) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "blockSize is %lld; it must be 256",
                       static_cast<long long>(block_size));
  }
  for (const auto& [name, tensor] : {std::pair{"grad", grad}, std::pair{"mRef", m}, std::pair{"vRef", v}}) {
    if (tensor->view_shape != var->view_shape) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "%s has shape %s; it must have varRef's shape %s", name,
                         ShapeToString(tensor->view_shape).c_str(), ShapeToString(var->view_shape).c_str());
    }
  }
  if (qmap_m->NumElements() != kQmapSize || qmap_v->view_shape != qmap_m->view_shape) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "qmapM %s and qmapV %s must both be [256]",
                       ShapeToString(qmap_m->view_shape).c_str(), ShapeToString(qmap_v->view_shape).c_str());
  }
  if (step->view_shape != Shape{1}) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "step has shape %s; it must be [1]",
                       ShapeToString(step->view_shape).c_str());
  }
  const int64_t count = var->NumElements();
  if (count == 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "varRef is empty; the tiling finds no block to work on");
  }
  // The doc's constraint, which the kernel relies on (one absmax per block, read and written).
  const int64_t blocks = (count + kQuantBlock - 1) / kQuantBlock;
  for (const auto& [name, tensor] : {std::pair{"absmaxMRef", absmax_m}, std::pair{"absmaxVRef", absmax_v}}) {
    if (tensor->NumElements() != blocks) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "%s has %lld elements; it must have ceil(%lld / 256) = %lld",
                         name, static_cast<long long>(tensor->NumElements()), static_cast<long long>(count),
                         static_cast<long long>(blocks));
    }
  }

  const TensorRef var_in = plan.Input(var, "varRef");
  const TensorRef grad_in = plan.Input(grad, "grad");
  const TensorRef m_in = plan.Input(m, "mRef");
  const TensorRef v_in = plan.Input(v, "vRef");
  const TensorRef qmap_m_in = plan.Input(qmap_m, "qmapM");
  const TensorRef qmap_v_in = plan.Input(qmap_v, "qmapV");
  const TensorRef absmax_m_in = plan.Input(absmax_m, "absmaxMRef");
  const TensorRef absmax_v_in = plan.Input(absmax_v, "absmaxVRef");
  const TensorRef step_in = plan.Input(step, "step");
  const TensorRef var_out = plan.Output(var, "varRef");
  const TensorRef m_out = plan.Output(m, "mRef");
  const TensorRef v_out = plan.Output(v, "vRef");
  const TensorRef absmax_m_out = plan.Output(absmax_m, "absmaxMRef");
  const TensorRef absmax_v_out = plan.Output(absmax_v, "absmaxVRef");

  // Working copies: the step updates var, the codes and the absmaxes in place in the workspace.
  const TensorRef var_work = GatheredF32(plan, var_in), grad_work = GatheredF32(plan, grad_in);
  const TensorRef m_work = WorkingCopy(plan, m_in, ACL_UINT8), v_work = WorkingCopy(plan, v_in, ACL_UINT8);
  const TensorRef qmap_m_work = GatheredF32(plan, qmap_m_in), qmap_v_work = GatheredF32(plan, qmap_v_in);
  const TensorRef absmax_m_work = GatheredF32(plan, absmax_m_in), absmax_v_work = GatheredF32(plan, absmax_v_in);
  const TensorRef step_work = GatheredF32(plan, step_in);
  AdamQuantDesc desc;
  desc.var = var_work.buffer;
  desc.grad = grad_work.buffer;
  desc.m_codes = m_work.buffer;
  desc.v_codes = v_work.buffer;
  desc.qmap_m = qmap_m_work.buffer;
  desc.qmap_v = qmap_v_work.buffer;
  desc.absmax_m = absmax_m_work.buffer;
  desc.absmax_v = absmax_v_work.buffer;
  desc.step = step_work.buffer;
  desc.count = count;
  // The op's attributes are FLOAT: the tiling hands the kernel f32 values.
  desc.lr = static_cast<float>(lr);
  desc.beta1 = static_cast<float>(beta1);
  desc.beta2 = static_cast<float>(beta2);
  desc.weight_decay = static_cast<float>(weight_decay);
  desc.eps = static_cast<float>(eps);
  desc.gnorm_scale = static_cast<float>(gnorm_scale);
  plan.AddStep(std::make_unique<AdamQuantStep>(desc),
               {grad_work, m_work, v_work, qmap_m_work, qmap_v_work, absmax_m_work, absmax_v_work, step_work},
               var_work);
  plan.Copy(var_work, var_out);
  plan.Copy(m_work, m_out);
  plan.Copy(v_work, v_out);
  plan.Copy(absmax_m_work, absmax_m_out);
  plan.Copy(absmax_v_work, absmax_v_out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ApplyAdamWQuant, PlanApplyAdamWQuant,
                (OpTraits{.header = "aclnnop/aclnn_apply_adam_w_quant.h",
                          .dtypes = kVarDtypes,
                          .in_place = true,
                          .example = "f32[1,256] f32[1,256] u8[1,256] u8[1,256] f32[256] f32[256]{0:1} f32[1]{1:5} "
                                     "f32[1]{1:3} i64[1]{0:3} 0.001 0.9 0.999 0.01 1e-8 1 'BLOCKWISE' 256"}),
                (aclTensor*, varRef), (const aclTensor*, grad), (aclTensor*, mRef), (aclTensor*, vRef),
                (const aclTensor*, qmapM), (const aclTensor*, qmapV), (aclTensor*, absmaxMRef),
                (aclTensor*, absmaxVRef), (const aclTensor*, step), (double, lr), (double, beta1), (double, beta2),
                (double, weightDecay), (double, eps), (double, gnormScale), (char*, quantModeOptional, optional),
                (int64_t, blockSize))
