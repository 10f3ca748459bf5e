// aclnnAdaLayerNorm, aclnnAdaLayerNormV2 and aclnnAdaLayerNormQuant: LayerNorm of x [B..., S, H]
// over H (times weightOptional, plus biasOptional), then * (1 + scale) + shift, scale and shift
// [B..., H] or [B..., 1, H] (one row for the S rows of each batch), fused into the row-norm step's
// last pass. V2 also gives the mean and rstd (x's dtype, [B..., S, 1]) and takes FLOAT weight and
// bias with any x; Quant (f16 / bf16 x only) quantises the result per row as DynamicQuant does,
// times smoothScalesOptional first: quantScale = max|row| / 127 ([B..., S], FLOAT), out INT8.
// Every check is CANN's A2 one, all 161002; x takes no empty dim.
#include <cstring>

#include "aclnnop/aclnn_ada_layer_norm.h"
#include "aclnnop/aclnn_ada_layer_norm_quant.h"
#include "aclnnop/aclnn_ada_layer_norm_v2.h"
#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAdaDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kAdaQuantDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMinRank = 2;
constexpr int64_t kMaxRank = 8;

enum class AdaForm : uint8_t { kV1, kV2, kQuant };

struct AdaArgs {
  const aclTensor* x = nullptr;
  const aclTensor* scale = nullptr;
  const aclTensor* shift = nullptr;
  const aclTensor* weight = nullptr;
  const aclTensor* bias = nullptr;
  const aclTensor* smooth = nullptr;  // Quant
  double epsilon = 0;
  const aclTensor* out = nullptr;
  const aclTensor* mean = nullptr;  // V2
  const aclTensor* rstd = nullptr;  // V2
};

// weightOptional / biasOptional: x's dtype (V2: or FLOAT), and each other's when both are given.
aclnnStatus CheckAffineDtypes(Plan& plan, const AdaArgs& a, bool float_allowed) {
  if (a.weight != nullptr && a.bias != nullptr && a.weight->dtype != a.bias->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'weightOptional' (%s) and 'biasOptional' (%s) differ in dtype",
                       DtypeName(a.weight->dtype), DtypeName(a.bias->dtype));
  }
  for (const auto& [name, t] : {std::pair{"weightOptional", a.weight}, std::pair{"biasOptional", a.bias}}) {
    if (t == nullptr || t->dtype == a.x->dtype || (float_allowed && t->dtype == ACL_FLOAT)) continue;
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has dtype %s; it must be x's (%s)%s", name,
                       DtypeName(t->dtype), DtypeName(a.x->dtype), float_allowed ? " or FLOAT" : "");
  }
  return ACLNN_SUCCESS;
}

// The shapes every form shares: x [B..., S, H] of rank 2-8 without an empty dim, scale and shift
// [B..., H] or [B..., 1, H], weight and bias [H], out x's shape. Sets rows (B x S) and the batch
// size S.
aclnnStatus CheckAdaShapes(Plan& plan, const AdaArgs& a, int64_t& rows, int64_t& per_batch) {
  const Shape& x = a.x->view_shape;
  if (a.x->rank() < kMinRank || a.x->rank() > kMaxRank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has rank %lld; it must be 2 to 8",
                       static_cast<long long>(a.x->rank()));
  }
  for (const int64_t extent : x) {
    if (extent <= 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has shape %s; every dim must be above 0",
                         ShapeToString(x).c_str());
    }
  }
  const int64_t h = x.back();
  Shape per_batch_shape(x.begin(), x.end() - 2);
  per_batch_shape.push_back(h);
  Shape per_batch_one = per_batch_shape;
  per_batch_one.insert(per_batch_one.end() - 1, 1);
  for (const auto& [name, t] : {std::pair{"scale", a.scale}, std::pair{"shift", a.shift}}) {
    if (t->view_shape != per_batch_shape && t->view_shape != per_batch_one) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be %s or %s (x is %s)", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(per_batch_shape).c_str(),
                         ShapeToString(per_batch_one).c_str(), ShapeToString(x).c_str());
    }
  }
  for (const auto& [name, t] : {std::pair{"weightOptional", a.weight}, std::pair{"biasOptional", a.bias},
                                std::pair{"smoothScalesOptional", a.smooth}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckShape(name, t, {h}));
  }
  CANOPY_CHECK(plan.CheckShape("out", a.out, x));
  per_batch = x[x.size() - 2];
  rows = ElementCount(x) / h;
  return ACLNN_SUCCESS;
}

NormPlan AdaNormPlan(const AdaArgs& a, int64_t rows, int64_t per_batch) {
  NormPlan norm;
  norm.kind = kernels::NormKind::kLayer;
  norm.eps = a.epsilon;
  norm.rows = rows;
  norm.length = a.x->view_shape.back();
  norm.ada_rows = per_batch;
  norm.x = Given(a.x, "x");
  norm.ada_scale = Given(a.scale, "scale");
  norm.ada_shift = Given(a.shift, "shift");
  norm.gamma = Given(a.weight, "weightOptional");
  norm.beta = Given(a.bias, "biasOptional");
  return norm;
}

aclnnStatus PlanAda(Plan& plan, const AdaArgs& a, bool v2) {
  CANOPY_CHECK(plan.CheckDtype("x", a.x->dtype, kAdaDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale", a.scale->dtype, {a.x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("shift", a.shift->dtype, {a.x->dtype}));
  CANOPY_CHECK(CheckAffineDtypes(plan, a, v2));
  CANOPY_CHECK(plan.CheckDtype("out", a.out->dtype, {a.x->dtype}));
  if (a.mean != nullptr) CANOPY_CHECK(plan.CheckDtype("meanOutOptional", a.mean->dtype, {a.x->dtype}));
  if (a.rstd != nullptr) CANOPY_CHECK(plan.CheckDtype("rstdOutOptional", a.rstd->dtype, {a.x->dtype}));
  int64_t rows = 0, per_batch = 1;
  CANOPY_CHECK(CheckAdaShapes(plan, a, rows, per_batch));
  Shape stat = a.x->view_shape;
  stat.back() = 1;
  if (a.mean != nullptr) CANOPY_CHECK(plan.CheckShape("meanOutOptional", a.mean, stat));
  if (a.rstd != nullptr) CANOPY_CHECK(plan.CheckShape("rstdOutOptional", a.rstd, stat));
  NormPlan norm = AdaNormPlan(a, rows, per_batch);
  norm.y = Given(a.out, "out");
  if (v2) {
    norm.mean = Given(a.mean, "meanOutOptional");
    norm.rstd = Given(a.rstd, "rstdOutOptional");
  }
  return PlanRowNorm(plan, norm);
}

aclnnStatus PlanAdaLayerNorm(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* shift,
                             const aclTensor* weight, const aclTensor* bias, double epsilon, const aclTensor* out) {
  return PlanAda(plan, AdaArgs{x, scale, shift, weight, bias, nullptr, epsilon, out, nullptr, nullptr}, false);
}

aclnnStatus PlanAdaLayerNormV2(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* shift,
                               const aclTensor* weight, const aclTensor* bias, double epsilon, const aclTensor* out,
                               const aclTensor* mean, const aclTensor* rstd) {
  return PlanAda(plan, AdaArgs{x, scale, shift, weight, bias, nullptr, epsilon, out, mean, rstd}, true);
}

aclnnStatus PlanAdaLayerNormQuant(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* shift,
                                  const aclTensor* weight, const aclTensor* bias, const aclTensor* smooth,
                                  double epsilon, const char* quant_mode, const aclTensor* out,
                                  const aclTensor* quant_scale, const aclTensor* quant_offset) {
  const AdaArgs a{x, scale, shift, weight, bias, smooth, epsilon, out, nullptr, nullptr};
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kAdaQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, {x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("shift", shift->dtype, {x->dtype}));
  for (const auto& [name, t] : {std::pair{"weightOptional", weight}, std::pair{"biasOptional", bias},
                                std::pair{"smoothScalesOptional", smooth}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {x->dtype}));
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("quantScale", quant_scale->dtype, {ACL_FLOAT}));
  if (quant_offset != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'quantOffsetOptional' must be null (dynamic quantisation)");
  }
  int64_t rows = 0, per_batch = 1;
  CANOPY_CHECK(CheckAdaShapes(plan, a, rows, per_batch));
  const Shape stat(x->view_shape.begin(), x->view_shape.end() - 1);
  CANOPY_CHECK(plan.CheckShape("quantScale", quant_scale, stat));
  if (quant_mode != nullptr && std::strcmp(quant_mode, "dynamic") != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'quantMode' is \"%s\"; only \"dynamic\" is supported",
                       quant_mode);
  }
  const NormPlan norm = AdaNormPlan(a, rows, per_batch);
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  TensorRef smooth_ref;
  if (smooth != nullptr) {
    smooth_ref = plan.Input(smooth, "smoothScalesOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(out, "out");
  const TensorRef scale_ref = plan.Output(quant_scale, "quantScale");
  plan.SkipOutput();  // quantOffsetOptional
  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {rows, norm.length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  PlanDynamicQuantRows(plan, normalised, smooth != nullptr ? &smooth_ref : nullptr, out_ref, scale_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AdaLayerNorm, PlanAdaLayerNorm,
                (OpTraits{.header = "aclnnop/aclnn_ada_layer_norm.h",
                          .dtypes = kAdaDtypes,
                          .example = "f32[2,3,4] f32[2,4] f32[2,1,4] f32[4] f32[4] 1e-5 f32[2,3,4]"}),
                (const aclTensor*, x), (const aclTensor*, scale), (const aclTensor*, shift),
                (const aclTensor*, weightOptional, optional), (const aclTensor*, biasOptional, optional),
                (double, epsilon), (aclTensor*, out))
CANOPY_ACLNN_OP(AdaLayerNormV2, PlanAdaLayerNormV2,
                (OpTraits{.header = "aclnnop/aclnn_ada_layer_norm_v2.h",
                          .dtypes = kAdaDtypes,
                          .example = "f32[2,3,4] f32[2,4] f32[2,1,4] f32[4] f32[4] 1e-5 f32[2,3,4] f32[2,3,1] "
                                     "f32[2,3,1]"}),
                (const aclTensor*, x), (const aclTensor*, scale), (const aclTensor*, shift),
                (const aclTensor*, weightOptional, optional), (const aclTensor*, biasOptional, optional),
                (double, epsilon), (aclTensor*, out), (aclTensor*, meanOutOptional, optional),
                (aclTensor*, rstdOutOptional, optional))
CANOPY_ACLNN_OP(AdaLayerNormQuant, PlanAdaLayerNormQuant,
                (OpTraits{.header = "aclnnop/aclnn_ada_layer_norm_quant.h",
                          .dtypes = kAdaQuantDtypes,
                          .example = "f16[2,3,4] f16[2,4] f16[2,1,4] f16[4] f16[4] f16[4] 1e-5 'dynamic' i8[2,3,4] "
                                     "f32[2,3] -"}),
                (const aclTensor*, x), (const aclTensor*, scale), (const aclTensor*, shift),
                (const aclTensor*, weightOptional, optional), (const aclTensor*, biasOptional, optional),
                (const aclTensor*, smoothScalesOptional, optional), (double, epsilon),
                (const char*, quantMode, optional), (aclTensor*, out), (aclTensor*, quantScale),
                (aclTensor*, quantOffsetOptional, optional))
