// aclnnFakeQuantPerTensorAffineCachemask and ...PerChannel... (PyTorch's
// fake_quantize_*_affine_cachemask, the forward of quantisation-aware
// training): q = zero_point + nearbyint(x * (1 / scale)) (a FLOAT zero point
// is added before rounding), out = (clamp(q, quantMin, quantMax) -
// zero_point) * scale, mask = quantMin <= q <= quantMax. Per tensor, scale
// and zeroPoint hold one value each, and fakeQuantEnabled below 1 makes out a
// copy of self and mask all true (as CANN); per channel, one per index of
// self's dimension `axis`. Computed in FLOAT.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "aclnnop/aclnn_fake_quant_per_channel_affine_cachemask.h"
#include "aclnnop/aclnn_fake_quant_per_tensor_affine_cachemask.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFakeQuantDtypes = {ACL_FLOAT16, ACL_FLOAT};

// x [outer, channels, inner] FLOAT dense, scale / zero point [channels] FLOAT (the zero point's own
// dtype told apart by `integer_zero_point`); writes out FLOAT and mask BOOL of x's shape.
class FakeQuantStep final : public Step {
 public:
  FakeQuantStep(const TensorRef& x, const TensorRef& scale, const TensorRef& zero_point, bool integer_zero_point,
                int64_t quant_min, int64_t quant_max, const TensorRef& out, const TensorRef& mask)
      : x_(x),
        scale_(scale),
        zero_point_(zero_point),
        integer_zero_point_(integer_zero_point),
        quant_min_(quant_min),
        quant_max_(quant_max),
        out_(out),
        mask_(mask) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* x = reinterpret_cast<const float*>(context.Resolve(x_.buffer));
    const auto* scale = reinterpret_cast<const float*>(context.Resolve(scale_.buffer));
    const auto* zp = reinterpret_cast<const float*>(context.Resolve(zero_point_.buffer));
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    auto* mask = reinterpret_cast<uint8_t*>(context.Resolve(mask_.buffer));
    const int64_t outer = x_.shape[0], channels = x_.shape[1], inner = x_.shape[2];
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t c = 0; c < channels; ++c) {
        const float inv_scale = 1.0F / scale[c];
        const float z = zp[c];
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t at = (o * channels + c) * inner + i;
          const float scaled = x[at] * inv_scale;
          const float q = integer_zero_point_ ? z + std::nearbyint(scaled) : std::nearbyint(scaled + z);
          const bool inside = q >= static_cast<float>(quant_min_) && q <= static_cast<float>(quant_max_);
          const float clamped = std::min(std::max(q, static_cast<float>(quant_min_)), static_cast<float>(quant_max_));
          out[at] = (clamped - z) * scale[c];
          mask[at] = inside ? 1 : 0;
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "fake quantise " + ShapeToString(x_.shape); }

 private:
  TensorRef x_, scale_, zero_point_;
  bool integer_zero_point_;
  int64_t quant_min_, quant_max_;
  TensorRef out_, mask_;
};

aclnnStatus CheckCommon(Plan& plan, const aclTensor* self, const aclTensor* scale) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kFakeQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, kFakeQuantDtypes));
  return ACLNN_SUCCESS;
}

aclnnStatus CheckOutputs(Plan& plan, const aclTensor* self, const aclTensor* scale, const aclTensor* out,
                         const aclTensor* mask) {
  // CANN's code asks whether out's dtype casts to the promoted one.
  CANOPY_CHECK(plan.CheckCastable(out->dtype, "out", PromoteTypes(self->dtype, scale->dtype)));
  CANOPY_CHECK(plan.CheckDtype("mask", mask->dtype, {ACL_BOOL}));
  return ACLNN_SUCCESS;
}

aclnnStatus AddFakeQuant(Plan& plan, const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint,
                         int64_t axis, int64_t quantMin, int64_t quantMax, const aclTensor* out, const aclTensor* mask,
                         bool enabled) {
  if (quantMin > quantMax) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "quantMin (%lld) must not exceed quantMax (%lld)",
                       static_cast<long long>(quantMin), static_cast<long long>(quantMax));
  }
  const TensorRef x = plan.Input(self, "self");
  const TensorRef s = plan.Input(scale, "scale");
  const TensorRef z = plan.Input(zeroPoint, "zeroPoint");
  const TensorRef y = plan.Output(out, "out");
  const TensorRef m = plan.Output(mask, "mask");
  if (x.NumElements() == 0 || y.NumElements() == 0 || m.NumElements() == 0) return ACLNN_SUCCESS;
  if (!enabled) {
    plan.Copy(x, y);
    plan.Fill(m, ScalarValue::Integer(1));
    return ACLNN_SUCCESS;
  }
  int64_t outer = 1, channels = 1, inner = 1;
  for (int64_t d = 0; d < x.rank(); ++d) {
    (d < axis ? outer : d == axis ? channels : inner) *= x.shape[static_cast<size_t>(d)];
  }
  const TensorRef values = *Reshape(plan.Contiguous(x, ACL_FLOAT), {outer, channels, inner});
  const TensorRef scales = plan.Contiguous(Flat(plan, s), ACL_FLOAT);
  const TensorRef zeros = plan.Contiguous(Flat(plan, z), ACL_FLOAT);
  const TensorRef result = plan.Temporary(ACL_FLOAT, values.shape);
  const TensorRef marks = plan.Temporary(ACL_BOOL, values.shape);
  plan.AddStep(std::make_unique<FakeQuantStep>(values, scales, zeros, zeroPoint->dtype == ACL_INT32, quantMin, quantMax,
                                               result, marks),
               {values, scales, zeros}, result);
  plan.Copy(*Reshape(result, y.shape), y);
  plan.Copy(*Reshape(marks, m.shape), m);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanPerTensor(Plan& plan, const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint,
                          float fakeQuantEnabled, int64_t quantMin, int64_t quantMax, const aclTensor* out,
                          const aclTensor* mask) {
  CANOPY_CHECK(CheckCommon(plan, self, scale));
  CANOPY_CHECK(plan.CheckDtype("zeroPoint", zeroPoint->dtype, {ACL_INT32}));
  CANOPY_CHECK(CheckOutputs(plan, self, scale, out, mask));
  for (const auto& [name, t] : {std::pair{"scale", scale}, std::pair{"zeroPoint", zeroPoint}}) {
    if (t->NumElements() != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has %lld elements; it must hold one", name,
                         static_cast<long long>(t->NumElements()));
    }
  }
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  CANOPY_CHECK(plan.CheckShape("mask", mask, self->view_shape));
  // Per tensor is per channel with one channel (axis -1: everything inner).
  return AddFakeQuant(plan, self, scale, zeroPoint, -1, quantMin, quantMax, out, mask, fakeQuantEnabled >= 1.0F);
}

aclnnStatus PlanPerChannel(Plan& plan, const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint,
                           int64_t axis, int64_t quantMin, int64_t quantMax, const aclTensor* out,
                           const aclTensor* mask) {
  CANOPY_CHECK(CheckCommon(plan, self, scale));
  CANOPY_CHECK(plan.CheckDtype("zeroPoint", zeroPoint->dtype, {ACL_INT32, ACL_FLOAT16, ACL_FLOAT}));
  CANOPY_CHECK(CheckOutputs(plan, self, scale, out, mask));
  if (scale->rank() != 1 || zeroPoint->rank() != 1 || scale->view_shape[0] != zeroPoint->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scale %s and zeroPoint %s must be 1-D of one length",
                       ShapeToString(scale->view_shape).c_str(), ShapeToString(zeroPoint->view_shape).c_str());
  }
  const int64_t rank = self->rank();
  if ((rank == 0 && axis != 0 && axis != -1) || (rank > 0 && (axis < -rank || axis >= rank))) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'axis' (%lld) is out of range for self of rank %lld",
                       static_cast<long long>(axis), static_cast<long long>(rank));
  }
  const int64_t a = rank == 0 ? 0 : (axis < 0 ? axis + rank : axis);
  const int64_t channels = rank == 0 ? 1 : self->view_shape[static_cast<size_t>(a)];
  if (scale->view_shape[0] != channels) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scale and zeroPoint hold %lld values; self has %lld along axis %lld",
                       static_cast<long long>(scale->view_shape[0]), static_cast<long long>(channels),
                       static_cast<long long>(axis));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  CANOPY_CHECK(plan.CheckShape("mask", mask, self->view_shape));
  return AddFakeQuant(plan, self, scale, zeroPoint, rank == 0 ? -1 : a, quantMin, quantMax, out, mask, true);
}

}  // namespace

CANOPY_ACLNN_OP(FakeQuantPerTensorAffineCachemask, PlanPerTensor,
                (OpTraits{.header = "aclnnop/aclnn_fake_quant_per_tensor_affine_cachemask.h",
                          .dtypes = kFakeQuantDtypes | DtypeSet{ACL_INT32, ACL_BOOL},
                          .example = "f32[2,3] f32[1]{0.1:0.5} i32[1]{0:2} 1.0 -128 127 f32[2,3] bool[2,3]"}),
                (const aclTensor*, self), (const aclTensor*, scale), (const aclTensor*, zeroPoint),
                (float, fakeQuantEnabled), (int64_t, quantMin), (int64_t, quantMax), (aclTensor*, out),
                (aclTensor*, mask))
CANOPY_ACLNN_OP(FakeQuantPerChannelAffineCachemask, PlanPerChannel,
                (OpTraits{.header = "aclnnop/aclnn_fake_quant_per_channel_affine_cachemask.h",
                          .dtypes = kFakeQuantDtypes | DtypeSet{ACL_INT32, ACL_BOOL},
                          .example = "f32[2,3] f32[3]{0.1:0.5} i32[3]{0:2} 1 -128 127 f32[2,3] bool[2,3]"}),
                (const aclTensor*, self), (const aclTensor*, scale), (const aclTensor*, zeroPoint), (int64_t, axis),
                (int64_t, quantMin), (int64_t, quantMax), (aclTensor*, out), (aclTensor*, mask))
