// aclnnRmsNormQuant: y = round((x / rms(x) * gamma + beta) / scale + offset) over x's last dim, the
// norm in f32 by the row-norm step, then AscendQuantV3's kernel (half to even, saturating, NaN
// gives 0). A2: x, gamma, beta and scale FLOAT16 or BFLOAT16 of one dtype, offset INT8, scale and
// offset one value ([1]), gamma and beta [D] or [1, D]; y INT8, INT4 or INT32 (eight INT4, its
// last extent D / 8; INT4 / INT32 y contiguous). y has x's shape, as the doc says (CANN's A2 code
// compares only the last dims). Every fault is 161002.
//
// aclnnAddRmsNormDynamicQuant: x = x1 + x2 (xOut), y = RmsNorm(x) * gamma in f32, then per row as
// DynamicQuant does: y1Out / scale1Out from y (times smoothScale1Optional), and y2Out / scale2Out
// from y times smoothScale2Optional when it is given (else they are left alone, as CANN's doc
// says they mean nothing). A2: x1, x2, gamma, the smooth scales and xOut FLOAT16 / BFLOAT16 (161002),
// y1Out and y2Out INT8 (the doc's A2 note; the FP8 / HIFLOAT8 outputs are 950-only), scales FLOAT;
// input shapes 561002 as CANN's checks give; an empty x1, gamma or y2Out computes nothing.
//
// aclnnRmsNormDynamicQuant: y = RmsNorm(x) * gamma + betaOptional in f32, then DynamicQuant's
// per-row INT8 quantisation (times smoothScalesOptional). A2: x, gamma, smooth and beta FLOAT16 /
// BFLOAT16 of one dtype, yOut INT8, scaleOut FLOAT (161002); CANN's tiling checks shapes and
// dstType (2, INT8) and takes no empty x (561002).
#include <optional>
#include <tuple>

#include "aclnnop/aclnn_add_rms_norm_dynamic_quant.h"
#include "aclnnop/aclnn_rms_norm_dynamic_quant.h"
#include "aclnnop/aclnn_rms_norm_quant.h"

#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRmsNormQuantDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kQuantOutDtypes = {ACL_INT8, ACL_INT4, ACL_INT32};
constexpr int64_t kInt4PerInt32 = 8;

// The RMS norm of x's rows over its last dim, times gamma.
NormPlan RmsRows(const aclTensor* x, const aclTensor* gamma, double epsilon) {
  NormPlan norm;
  norm.kind = kernels::NormKind::kRms;
  norm.eps = epsilon;
  norm.length = x->view_shape.back();
  norm.rows = x->NumElements() / norm.length;
  norm.x = Given(x, "x");
  norm.gamma = Given(gamma, "gamma");
  return norm;
}

aclnnStatus PlanRmsNormQuant(Plan& plan, const aclTensor* x, const aclTensor* gamma, const aclTensor* beta,
                             const aclTensor* scale, const aclTensor* offset, double epsilon, const aclTensor* y) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kRmsNormQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("beta", beta->dtype, {x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("y", y->dtype, kQuantOutDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, {x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("offset", offset->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckRank("x", x, 1, 8));
  CANOPY_CHECK(plan.CheckRank("gamma", gamma, 1, 2));
  CANOPY_CHECK(plan.CheckRank("beta", beta, 1, 2));
  CANOPY_CHECK(plan.CheckRank("y", y, 1, 8));
  const int64_t length = x->view_shape.back();
  for (const auto& [name, t] : {std::pair{"gamma", gamma}, std::pair{"beta", beta}}) {
    if (t->view_shape.back() != length || (t->rank() == 2 && t->view_shape[0] != 1)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be [%lld] or [1, %lld]", name,
                         ShapeToString(t->view_shape).c_str(), static_cast<long long>(length),
                         static_cast<long long>(length));
    }
  }
  Shape y_shape = x->view_shape;
  if (y->dtype == ACL_INT32) {
    if (length % kInt4PerInt32 != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's last extent (%lld) must be a multiple of 8 for an INT32 y",
                         static_cast<long long>(length));
    }
    y_shape.back() = length / kInt4PerInt32;
  } else if (y->dtype == ACL_INT4 && length % 2 != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's last extent (%lld) must be even for an INT4 y",
                       static_cast<long long>(length));
  }
  CANOPY_CHECK(plan.CheckShape("y", y, y_shape));
  CANOPY_CHECK(plan.CheckShape("beta", beta, gamma->view_shape));
  CANOPY_CHECK(plan.CheckShape("scale", scale, {1}));
  CANOPY_CHECK(plan.CheckShape("offset", offset, scale->view_shape));
  if (x->NumElements() == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' is empty");

  NormPlan norm = RmsRows(x, gamma, epsilon);
  norm.beta = Given(beta, "beta");
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  const TensorRef scale_ref = plan.Input(scale, "scale");
  const TensorRef offset_ref = plan.Input(offset, "offset");
  const TensorRef y_ref = plan.Output(y, "y");
  if (y->dtype != ACL_INT8 && !y_ref.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 or INT32 y must be contiguous");
  }
  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {norm.rows, length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  PlanStaticQuantRows(plan, normalised, scale_ref, offset_ref, y_ref);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddRmsNormDynamicQuant(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                       const aclTensor* smooth1, const aclTensor* smooth2, double epsilon,
                                       const aclTensor* y1, const aclTensor* y2, const aclTensor* x_out,
                                       const aclTensor* scale1, const aclTensor* scale2) {
  for (const auto& [name, t] :
       {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"gamma", gamma}, std::pair{"smoothScale1Optional", smooth1},
        std::pair{"smoothScale2Optional", smooth2}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kRmsNormQuantDtypes));
  }
  CANOPY_CHECK(plan.CheckDtype("y1Out", y1->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("y2Out", y2->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, kRmsNormQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale1Out", scale1->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("scale2Out", scale2->dtype, {ACL_FLOAT}));
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;
  if (x2->view_shape != x1->view_shape) {
    return plan.Reject(kShape, "argument 'x2' has shape %s; expected x1's %s", ShapeToString(x2->view_shape).c_str(),
                       ShapeToString(x1->view_shape).c_str());
  }
  if (x1->rank() < 1 || gamma->rank() != 1 || gamma->view_shape[0] != x1->view_shape.back()) {
    return plan.Reject(kShape, "argument 'gamma' has shape %s; it must be [x1's last dim] (x1 is %s)",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  for (const auto& [name, t] :
       {std::pair{"smoothScale1Optional", smooth1}, std::pair{"smoothScale2Optional", smooth2}}) {
    if (t != nullptr && t->view_shape != gamma->view_shape) {
      return plan.Reject(kShape, "argument '%s' has shape %s; expected gamma's %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(gamma->view_shape).c_str());
    }
  }
  const int64_t length = gamma->view_shape[0];
  const int64_t rows = length == 0 ? 0 : x1->NumElements() / length;
  const bool empty = x1->NumElements() == 0 || gamma->NumElements() == 0 || y2->NumElements() == 0;
  // The outputs' element counts (CANN takes x1's shape or [rows, D], and [rows] scales).
  const auto check_count = [&](const char* name, const aclTensor* t, int64_t count) {
    if (t->NumElements() == count) return ACLNN_SUCCESS;
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must hold %lld elements", name,
                       ShapeToString(t->view_shape).c_str(), static_cast<long long>(count));
  };
  if (!empty) {
    CANOPY_CHECK(plan.CheckShape("xOut", x_out, x1->view_shape));
    CANOPY_CHECK(check_count("y1Out", y1, x1->NumElements()));
    CANOPY_CHECK(check_count("scale1Out", scale1, rows));
    if (smooth2 != nullptr) {
      CANOPY_CHECK(check_count("y2Out", y2, x1->NumElements()));
      CANOPY_CHECK(check_count("scale2Out", scale2, rows));
    }
  }
  const NormPlan norm = AddRmsRows(epsilon, empty ? 0 : rows, length, x1, x2, gamma, x_out);
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  std::optional<TensorRef> s1, s2;
  for (const auto& [t, name, ref] :
       {std::tuple{smooth1, "smoothScale1Optional", &s1}, std::tuple{smooth2, "smoothScale2Optional", &s2}}) {
    if (t == nullptr) {
      plan.SkipInput();
    } else {
      *ref = plan.Input(t, name);
    }
  }
  const TensorRef y1_ref = plan.Output(y1, "y1Out");
  const TensorRef y2_ref = plan.Output(y2, "y2Out");
  RegisterRowNormOutputs(plan, norm, refs);
  const TensorRef scale1_ref = plan.Output(scale1, "scale1Out");
  const TensorRef scale2_ref = plan.Output(scale2, "scale2Out");
  if (empty) return ACLNN_SUCCESS;
  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {rows, length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  PlanDynamicQuantRows(plan, normalised, s1 ? &*s1 : nullptr, y1_ref, scale1_ref);
  if (s2) PlanDynamicQuantRows(plan, normalised, &*s2, y2_ref, scale2_ref);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRmsNormDynamicQuant(Plan& plan, const aclTensor* x, const aclTensor* gamma, const aclTensor* smooth,
                                    const aclTensor* beta, double epsilon, int64_t dst_type, const aclTensor* y,
                                    const aclTensor* scale) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kRmsNormQuantDtypes));
  for (const auto& [name, t] :
       {std::pair{"gamma", gamma}, std::pair{"smoothScalesOptional", smooth}, std::pair{"betaOptional", beta}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {x->dtype}));
  }
  CANOPY_CHECK(plan.CheckDtype("yOut", y->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("scaleOut", scale->dtype, {ACL_FLOAT}));
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;
  if (dst_type != ACL_INT8) {
    return plan.Reject(kShape, "argument 'dstType' is %lld; it must be 2 (INT8)", static_cast<long long>(dst_type));
  }
  if (x->rank() < 2)
    return plan.Reject(kShape, "argument 'x' has rank %lld; it must be 2 to 8", static_cast<long long>(x->rank()));
  const int64_t length = x->view_shape.back();
  for (const auto& [name, t] :
       {std::pair{"gamma", gamma}, std::pair{"smoothScalesOptional", smooth}, std::pair{"betaOptional", beta}}) {
    if (t != nullptr && t->view_shape != Shape{length}) {
      return plan.Reject(kShape, "argument '%s' has shape %s; it must be [%lld] (x's last dim)", name,
                         ShapeToString(t->view_shape).c_str(), static_cast<long long>(length));
    }
  }
  if (y->view_shape != x->view_shape) {
    return plan.Reject(kShape, "argument 'yOut' has shape %s; expected x's %s", ShapeToString(y->view_shape).c_str(),
                       ShapeToString(x->view_shape).c_str());
  }
  const Shape rows_shape(x->view_shape.begin(), x->view_shape.end() - 1);
  if (scale->view_shape != rows_shape) {
    return plan.Reject(kShape, "argument 'scaleOut' has shape %s; expected %s (x less its last dim)",
                       ShapeToString(scale->view_shape).c_str(), ShapeToString(rows_shape).c_str());
  }
  if (x->NumElements() == 0) return plan.Reject(kShape, "argument 'x' is empty");
  NormPlan norm = RmsRows(x, gamma, epsilon);
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  std::optional<TensorRef> smooth_ref;
  if (smooth != nullptr) {
    smooth_ref = plan.Input(smooth, "smoothScalesOptional");
  } else {
    plan.SkipInput();
  }
  // betaOptional comes after the smooth scales in the prototype: registered here, read by the norm.
  if (beta != nullptr) {
    refs.beta = {true, plan.Input(beta, "betaOptional")};
  } else {
    plan.SkipInput();
  }
  const TensorRef y_ref = plan.Output(y, "yOut");
  const TensorRef scale_ref = plan.Output(scale, "scaleOut");
  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {norm.rows, length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  PlanDynamicQuantRows(plan, normalised, smooth_ref ? &*smooth_ref : nullptr, y_ref, scale_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(RmsNormDynamicQuant, PlanRmsNormDynamicQuant,
                (OpTraits{.header = "aclnnop/aclnn_rms_norm_dynamic_quant.h",
                          .dtypes = kRmsNormQuantDtypes,
                          .example = "f16[2,8] f16[8] f16[8] f16[8] 1e-6 2 i8[2,8] f32[2]"}),
                (const aclTensor*, x), (const aclTensor*, gamma), (const aclTensor*, smoothScalesOptional, optional),
                (const aclTensor*, betaOptional, optional), (double, epsilon), (int64_t, dstType),
                (const aclTensor*, yOut), (const aclTensor*, scaleOut))
CANOPY_ACLNN_OP(AddRmsNormDynamicQuant, PlanAddRmsNormDynamicQuant,
                (OpTraits{
                    .header = "aclnnop/aclnn_add_rms_norm_dynamic_quant.h",
                    .dtypes = kRmsNormQuantDtypes,
                    .example = "f16[2,8] f16[2,8] f16[8] f16[8] f16[8] 1e-6 i8[2,8] i8[2,8] f16[2,8] f32[2] f32[2]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma),
                (const aclTensor*, smoothScale1Optional, optional), (const aclTensor*, smoothScale2Optional, optional),
                (double, epsilon), (aclTensor*, y1Out), (aclTensor*, y2Out), (aclTensor*, xOut),
                (aclTensor*, scale1Out), (aclTensor*, scale2Out))
CANOPY_ACLNN_OP(RmsNormQuant, PlanRmsNormQuant,
                (OpTraits{.header = "aclnnop/aclnn_rms_norm_quant.h",
                          .dtypes = kRmsNormQuantDtypes,
                          .example = "f16[3,5] f16[1,5] f16[1,5] f16[1]{0.5:2} i8[1] 1e-6 i8[3,5]"}),
                (const aclTensor*, x), (const aclTensor*, gamma), (const aclTensor*, beta), (const aclTensor*, scale),
                (const aclTensor*, offset), (double, epsilon), (aclTensor*, y))
