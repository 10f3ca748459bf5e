// aclnnGroupNorm: self [N, C, ...] in `group` groups of C / group channels, each
// group normalised over its channels' HxW elements, then scaled and shifted per channel.
// aclnnGroupNormSilu (V2: when activateSilu) and aclnnGroupNormSwish (when
// activateSwish, y / (1 + exp(-swishScale y))) swish the result in the same pass;
// aclnnGroupNormSiluQuant quantises the silu's result to INT8.
#include <cstring>
#include <limits>

#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_silu.h"
#include "aclnnop/aclnn_group_norm_silu_quant.h"
#include "aclnnop/aclnn_group_norm_swish.h"
#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGroupNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kGroupNormSiluQuantDtypes = {ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanGroupNorm(Plan& plan, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta, int64_t n,
                          int64_t c, int64_t hxw, int64_t group, double eps, const aclTensor* out,
                          const aclTensor* mean, const aclTensor* rstd) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGroupNormDtypes));
  for (const auto& [name, t] : {std::pair{"gamma", gamma}, std::pair{"beta", beta}, std::pair{"out", out},
                                std::pair{"meanOut", mean}, std::pair{"rstdOut", rstd}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {self->dtype}));
  }
  if (group <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'group' is %lld; it must be positive",
                       static_cast<long long>(group));
  }
  if (c % group != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "C (%lld) is not divisible by group (%lld)", static_cast<long long>(c),
                       static_cast<long long>(group));
  }
  if (!(eps > 0)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'eps' is %g; it must be positive", eps);
  if (self->rank() < 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'self' has rank %lld; it needs at least 2 dims",
                       static_cast<long long>(self->rank()));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  CANOPY_CHECK(plan.CheckShape("meanOut", mean, {n, group}));
  CANOPY_CHECK(plan.CheckShape("rstdOut", rstd, {n, group}));
  const Shape& shape = self->view_shape;
  const int64_t spatial = ElementCount(Shape(shape.begin() + 2, shape.end()));
  if (shape[0] != n || shape[1] != c || spatial != hxw) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has shape %s, not [N=%lld, C=%lld, HxW=%lld elements]",
                       ShapeToString(shape).c_str(), static_cast<long long>(n), static_cast<long long>(c),
                       static_cast<long long>(hxw));
  }
  for (const auto& [name, t] : {std::pair{"gamma", gamma}, std::pair{"beta", beta}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckShape(name, t, {c}));
  }
  if (self->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' and 'out' differ in format (%d and %d)",
                       static_cast<int>(self->format), static_cast<int>(out->format));
  }
  NormPlan norm;
  norm.kind = kernels::NormKind::kLayer;
  norm.eps = eps;
  norm.rows = n * group;
  norm.length = c / group * hxw;
  norm.groups = group;
  norm.repeat = std::max<int64_t>(hxw, 1);
  norm.x = Given(self, "self");
  norm.gamma = Given(gamma, "gamma");
  norm.beta = Given(beta, "beta");
  norm.y = Given(out, "out");
  norm.mean = Given(mean, "meanOut");
  norm.rstd = Given(rstd, "rstdOut");
  return PlanRowNorm(plan, norm);
}

// The fused forms' shared checks: self [N, C, *], optional per-channel gamma and beta, outputs of
// self's shape and [N, group], in CANN's order.
aclnnStatus CheckFusedGroupNorm(Plan& plan, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                                int64_t group, double eps, const aclTensor* out, const aclTensor* mean,
                                const aclTensor* rstd, aclnnStatus shape_status, const char* self_name,
                                const char* group_name, const char* out_name) {
  if (self->rank() < 2) {
    return plan.Reject(shape_status, "argument '%s' has rank %lld; it needs at least 2 dims", self_name,
                       static_cast<long long>(self->rank()));
  }
  const Shape& shape = self->view_shape;
  const int64_t n = shape[0], c = shape[1];
  CANOPY_CHECK(plan.CheckShape(out_name, out, shape));
  CANOPY_CHECK(plan.CheckShape("meanOut", mean, {n, group}));
  CANOPY_CHECK(plan.CheckShape("rstdOut", rstd, {n, group}));
  for (const auto& [name, t] : {std::pair{"gamma", gamma}, std::pair{"beta", beta}}) {
    if (t != nullptr && (t->rank() != 1 || t->view_shape[0] != c)) {
      return plan.Reject(shape_status, "argument '%s' has shape %s; it must be [C=%lld]", name,
                         ShapeToString(t->view_shape).c_str(), static_cast<long long>(c));
    }
  }
  if (group <= 0) {
    return plan.Reject(shape_status, "argument '%s' is %lld; it must be positive", group_name,
                       static_cast<long long>(group));
  }
  if (n <= 0 || c <= 0) {
    return plan.Reject(shape_status, "'%s' has shape %s; N and C must be positive", self_name,
                       ShapeToString(shape).c_str());
  }
  if (!(eps > 0)) return plan.Reject(shape_status, "argument 'eps' is %g; it must be positive", eps);
  if (c % group != 0) {
    return plan.Reject(shape_status, "C (%lld) is not divisible by %s (%lld)", static_cast<long long>(c), group_name,
                       static_cast<long long>(group));
  }
  return ACLNN_SUCCESS;
}

// self's groups as rows of the row-norm step, with gamma and beta per channel; `swish` above 0 activates.
NormPlan FusedGroupRows(const aclTensor* self, const aclTensor* gamma, const aclTensor* beta, int64_t group, double eps,
                        double swish, const char* self_name) {
  const Shape& shape = self->view_shape;
  const int64_t hxw = ElementCount(Shape(shape.begin() + 2, shape.end()));
  NormPlan norm;
  norm.kind = kernels::NormKind::kLayer;
  norm.eps = eps;
  norm.rows = shape[0] * group;
  norm.length = shape[1] / group * hxw;
  norm.groups = group;
  norm.repeat = hxw;
  norm.swish_scale = swish;
  norm.x = Given(self, self_name);
  norm.gamma = Given(gamma, "gamma");
  norm.beta = Given(beta, "beta");
  return norm;
}

// An empty spatial extent computes nothing but mean 0 and rstd NaN, as CANN does.
void FillEmptyStatistics(Plan& plan, const TensorRef& mean, const TensorRef& rstd) {
  plan.Fill(mean, ScalarValue::Real(0));
  plan.Fill(rstd, ScalarValue::Real(std::numeric_limits<double>::quiet_NaN()));
}

// The fused forms' shared plan.
aclnnStatus PlanFusedGroupNorm(Plan& plan, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                               int64_t group, double eps, double swish, const aclTensor* out, const aclTensor* mean,
                               const aclTensor* rstd, aclnnStatus shape_status, const char* self_name,
                               const char* group_name, const char* out_name) {
  CANOPY_CHECK(CheckFusedGroupNorm(plan, self, gamma, beta, group, eps, out, mean, rstd, shape_status, self_name,
                                   group_name, out_name));
  NormPlan norm = FusedGroupRows(self, gamma, beta, group, eps, swish, self_name);
  if (norm.repeat == 0) {
    plan.Input(self, self_name);
    if (gamma != nullptr) plan.Input(gamma, "gamma");
    if (beta != nullptr) plan.Input(beta, "beta");
    plan.Output(out, out_name);
    const TensorRef mean_ref = plan.Output(mean, "meanOut");
    FillEmptyStatistics(plan, mean_ref, plan.Output(rstd, "rstdOut"));
    return ACLNN_SUCCESS;
  }
  norm.y = Given(out, out_name);
  norm.mean = Given(mean, "meanOut");
  norm.rstd = Given(rstd, "rstdOut");
  return PlanRowNorm(plan, norm);
}

// gamma and beta: when both are given, of one dtype; each self's or (self not FLOAT) FLOAT.
aclnnStatus CheckAffineDtypes(Plan& plan, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                              aclnnStatus status) {
  if (gamma != nullptr && beta != nullptr && gamma->dtype != beta->dtype) {
    return plan.Reject(status, "'gamma' (%s) and 'beta' (%s) differ in dtype", DtypeName(gamma->dtype),
                       DtypeName(beta->dtype));
  }
  for (const auto& [name, t] : {std::pair{"gamma", gamma}, std::pair{"beta", beta}}) {
    if (t != nullptr && t->dtype != self->dtype && t->dtype != ACL_FLOAT) {
      return plan.Reject(status, "'%s' has dtype %s; it must be self's (%s) or FLOAT", name, DtypeName(t->dtype),
                         DtypeName(self->dtype));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanGroupNormSiluCommon(Plan& plan, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                                    int64_t group, double eps, bool silu, const aclTensor* out, const aclTensor* mean,
                                    const aclTensor* rstd) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGroupNormDtypes));
  CANOPY_CHECK(CheckAffineDtypes(plan, self, gamma, beta, ACLNN_ERR_PARAM_INVALID));
  // On CANN's Atlas A2 path out, meanOut and rstdOut take self's dtype.
  for (const auto& [name, t] : {std::pair{"out", out}, std::pair{"meanOut", mean}, std::pair{"rstdOut", rstd}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {self->dtype}));
  }
  return PlanFusedGroupNorm(plan, self, gamma, beta, group, eps, silu ? 1.0 : 0.0, out, mean, rstd,
                            ACLNN_ERR_PARAM_INVALID, "self", "group", "out");
}

aclnnStatus PlanGroupNormSilu(Plan& plan, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                              int64_t group, double eps, const aclTensor* out, const aclTensor* mean,
                              const aclTensor* rstd) {
  return PlanGroupNormSiluCommon(plan, self, gamma, beta, group, eps, true, out, mean, rstd);
}
aclnnStatus PlanGroupNormSiluV2(Plan& plan, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                                int64_t group, double eps, bool activateSilu, const aclTensor* out,
                                const aclTensor* mean, const aclTensor* rstd) {
  return PlanGroupNormSiluCommon(plan, self, gamma, beta, group, eps, activateSilu, out, mean, rstd);
}

// GroupNormSwish: dtype combinations are checked as CANN's op definition does
// (161002), shapes and attributes where its tiling does (561002); mean and
// rstd take gamma's dtype.
aclnnStatus PlanGroupNormSwish(Plan& plan, const aclTensor* x, const aclTensor* gamma, const aclTensor* beta,
                               int64_t numGroups, const char* dataFormatOptional, double eps, bool activateSwish,
                               double swishScale, const aclTensor* yOut, const aclTensor* meanOut,
                               const aclTensor* rstdOut) {
  (void)dataFormatOptional;  // not validated by CANN; the layout is always [N, C, *]
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kGroupNormDtypes));
  CANOPY_CHECK(CheckAffineDtypes(plan, x, gamma, beta, ACLNN_ERR_PARAM_INVALID));
  CANOPY_CHECK(plan.CheckDtype("yOut", yOut->dtype, {x->dtype}));
  for (const auto& [name, t] : {std::pair{"meanOut", meanOut}, std::pair{"rstdOut", rstdOut}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {gamma->dtype}));
  }
  if (activateSwish && !(swishScale > 0)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'swishScale' is %g; it must be positive", swishScale);
  }
  return PlanFusedGroupNorm(plan, x, gamma, beta, numGroups, eps, activateSwish ? swishScale : 0.0, yOut, meanOut,
                            rstdOut, ACLNN_ERR_INNER_TILING_ERROR, "x", "numGroups", "yOut");
}

// GroupNormSiluQuant (A2): self, gamma and beta FLOAT16 / BFLOAT16 of one dtype (CANN's host code
// ties them only when both are given; its op definition pairs each with self), quantScale FLOAT of 1
// or C values, out INT8, meanOut and rstdOut self's dtype; activateSilu true; all 161002, as are N
// or C of 0. The silu's result is quantised as CANN's kernel does it: times 1 / quantScale in f32
// (a zero scale gives infinities), cast to f16, saturated, rounded half to even.
aclnnStatus PlanGroupNormSiluQuant(Plan& plan, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                                   const aclTensor* quant_scale, int64_t group, double eps, bool activate_silu,
                                   const aclTensor* out, const aclTensor* mean, const aclTensor* rstd) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGroupNormSiluQuantDtypes));
  for (const auto& [name, t] : {std::pair{"gammaOptional", gamma}, std::pair{"betaOptional", beta}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {self->dtype}));
  }
  CANOPY_CHECK(plan.CheckDtype("quantScale", quant_scale->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("meanOut", mean->dtype, {self->dtype}));
  CANOPY_CHECK(plan.CheckDtype("rstdOut", rstd->dtype, {self->dtype}));
  CANOPY_CHECK(CheckFusedGroupNorm(plan, self, gamma, beta, group, eps, out, mean, rstd, ACLNN_ERR_PARAM_INVALID,
                                   "self", "group", "out"));
  const int64_t channels = self->view_shape[1];
  if (quant_scale->rank() != 1 || (quant_scale->view_shape[0] != 1 && quant_scale->view_shape[0] != channels)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'quantScale' has shape %s; it must be [1] or [C=%lld]",
                       ShapeToString(quant_scale->view_shape).c_str(), static_cast<long long>(channels));
  }
  if (!activate_silu) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'activateSilu' must be true");

  NormPlan norm = FusedGroupRows(self, gamma, beta, group, eps, 1.0, "self");
  norm.mean = Given(mean, "meanOut");
  norm.rstd = Given(rstd, "rstdOut");
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  const TensorRef scale_ref = plan.Input(quant_scale, "quantScale");
  const TensorRef out_ref = plan.Output(out, "out");
  RegisterRowNormOutputs(plan, norm, refs);
  if (norm.repeat == 0) {
    FillEmptyStatistics(plan, refs.mean.ref, refs.rstd.ref);
    return ACLNN_SUCCESS;
  }
  const TensorRef activated = plan.Temporary(ACL_FLOAT, {norm.rows, norm.length});
  PlanRowNormStep(plan, norm, refs, &activated);
  PlanReciprocalQuant(plan, activated, scale_ref, nullptr, out_ref, channels, norm.repeat, false);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(GroupNormSilu, PlanGroupNormSilu,
                (OpTraits{.header = "aclnnop/aclnn_group_norm_silu.h",
                          .dtypes = kGroupNormDtypes,
                          .example = "f32[2,4,3] f32[4] f32[4] 2 1e-5 f32[2,4,3] f32[2,2] f32[2,2]"}),
                (const aclTensor*, self), (const aclTensor*, gamma, optional), (const aclTensor*, beta, optional),
                (int64_t, group), (double, eps), (aclTensor*, out), (aclTensor*, meanOut), (aclTensor*, rstdOut))
CANOPY_ACLNN_OP(GroupNormSiluV2, PlanGroupNormSiluV2,
                (OpTraits{.header = "aclnnop/aclnn_group_norm_silu.h",
                          .dtypes = kGroupNormDtypes,
                          .example = "f32[2,4,3] f32[4] f32[4] 2 1e-5 true f32[2,4,3] f32[2,2] f32[2,2]"}),
                (const aclTensor*, self), (const aclTensor*, gamma, optional), (const aclTensor*, beta, optional),
                (int64_t, group), (double, eps), (bool, activateSilu), (aclTensor*, out), (aclTensor*, meanOut),
                (aclTensor*, rstdOut))
CANOPY_ACLNN_OP(GroupNormSwish, PlanGroupNormSwish,
                (OpTraits{.header = "aclnnop/aclnn_group_norm_swish.h",
                          .dtypes = kGroupNormDtypes,
                          .example = "f32[2,4,3] f32[4] f32[4] 2 'NCHW' 1e-5 true 1.0 f32[2,4,3] f32[2,2] f32[2,2]"}),
                (const aclTensor*, x), (const aclTensor*, gamma), (const aclTensor*, beta), (int64_t, numGroups),
                (char*, dataFormatOptional, optional), (double, eps), (bool, activateSwish), (double, swishScale),
                (const aclTensor*, yOut), (const aclTensor*, meanOut), (const aclTensor*, rstdOut))

CANOPY_ACLNN_OP(GroupNorm, PlanGroupNorm,
                (OpTraits{.header = "aclnnop/aclnn_group_norm.h",
                          .dtypes = kGroupNormDtypes,
                          .example = "f32[2,4,3] f32[4] f32[4] 2 4 3 2 1e-5 f32[2,4,3] f32[2,2] f32[2,2]"}),
                (const aclTensor*, self), (const aclTensor*, gamma, optional), (const aclTensor*, beta, optional),
                (int64_t, N), (int64_t, C), (int64_t, HxW), (int64_t, group), (double, eps), (aclTensor*, out),
                (aclTensor*, meanOut), (aclTensor*, rstdOut))
CANOPY_ACLNN_OP(GroupNormSiluQuant, PlanGroupNormSiluQuant,
                (OpTraits{
                    .header = "aclnnop/aclnn_group_norm_silu_quant.h",
                    .dtypes = kGroupNormSiluQuantDtypes,
                    .example = "f16[2,4,3] f16[4] f16[4] f32[1]{0.01:0.05} 2 1e-5 true i8[2,4,3] f16[2,2] f16[2,2]"}),
                (const aclTensor*, self), (const aclTensor*, gammaOptional, optional),
                (const aclTensor*, betaOptional, optional), (const aclTensor*, quantScale), (int64_t, group),
                (double, eps), (bool, activateSilu), (aclTensor*, out), (aclTensor*, meanOut), (aclTensor*, rstdOut))
