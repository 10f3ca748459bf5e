// aclnnAddRmsNormQuant: x = x1 + x2 (xOut), y = RmsNorm(x) * gamma over the trailing dims gamma
// spans, in f32 by the row-norm step, then y1Out = round(y / scales1 + zeroPoints1Optional) (y *
// scales1 when divMode is false) and, only when scales2Optional is given, y2Out likewise (else y2Out
// is left alone, as CANN copies it only then): one scale and zero point per column, half to even,
// saturating to INT8. A2 dtypes as CANN's host code checks them (wider than the doc's two rows):
// x1, x2, gamma, scales and xOut FLOAT / FLOAT16 / BFLOAT16, zero points INT32 / FLOAT / FLOAT16 /
// BFLOAT16, y1Out and y2Out of one dtype, INT8 only (the FP8 / HIFLOAT8 outputs are 950-only), all
// 161002, as is a rank below 1. Shapes are the tiling's (561002). An empty x1, gamma or y2Out
// computes nothing, as CANN's host code returns at once there. axis: only -1 takes effect (the doc).
//
// aclnnAddRmsNormQuantV2 adds betaOptional (y = RmsNorm(x) * gamma + beta) and rmsNormOut, and takes
// one of CANN's two A2 paths: the fused kernel (one scales1 and zeroPoints1Optional value, divMode,
// no second quantisation, gamma [D] or [1, D]; either betaOptional with xOut, or rmsNormOut = the norm
// without either), else AddRmsNormQuant's kernel with beta, which needs xOut and no rmsNormOut
// (161001). A2 dtypes as its host code checks them, in its order: x1, x2, gamma, beta, xOut and
// rmsNormOut FLOAT16 / BFLOAT16, scales FLOAT / BFLOAT16 (a FLOAT16 scales1 and an INT8
// zeroPoints1Optional are cast first, so taken), zero points INT32 / BFLOAT16, y INT8; shapes 161002.
#include <optional>

#include "aclnnop/aclnn_add_rms_norm_quant.h"
#include "aclnnop/aclnn_add_rms_norm_quant_v2.h"

#include "ops/framework/tensor_view.h"
#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAddRmsNormQuantDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kZeroPointDtypes = {ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;  // CANN's tiling checks the shapes

// y = round(rows / scale + zero_point) (or rows * scale), one scale and zero point per column or one
// for all.
void PlanColumnQuant(Plan& plan, const TensorRef& rows, bool div_mode, const TensorRef& scale,
                     const std::optional<TensorRef>& zero_point, const TensorRef& out) {
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.divide = div_mode;
  desc.in_dtype = rows.dtype;
  desc.out_dtype = ACL_INT8;
  desc.elements = rows.NumElements();
  desc.axis_extent = rows.shape[1];
  desc.param_dtype = scale.dtype;
  desc.param_count = scale.NumElements();  // one per column, or one for all (V2's per-tensor form)
  if (zero_point) desc.offset_dtype = zero_point->dtype;
  AddAffineStep(plan, desc, rows, scale, zero_point ? &*zero_point : nullptr, out);
}

// The quantisation's parameters, registered in prototype order.
struct QuantParams {
  TensorRef scales1;
  std::optional<TensorRef> scales2, zero_points1, zero_points2;
};

QuantParams RegisterQuantParams(Plan& plan, const aclTensor* scales1, const aclTensor* scales2,
                                const aclTensor* zero_points1, const aclTensor* zero_points2) {
  QuantParams params;
  params.scales1 = plan.Input(scales1, "scales1");
  params.scales2 = OptionalInput(plan, scales2, "scales2Optional");
  params.zero_points1 = OptionalInput(plan, zero_points1, "zeroPoints1Optional");
  params.zero_points2 = OptionalInput(plan, zero_points2, "zeroPoints2Optional");
  return params;
}

// y1 from the normalised rows, and y2 only when scales2Optional is given (CANN copies it only then).
void PlanQuantOutputs(Plan& plan, const TensorRef& normalised, bool div_mode, const QuantParams& params,
                      const TensorRef& y1, const TensorRef& y2) {
  PlanColumnQuant(plan, normalised, div_mode, params.scales1, params.zero_points1, y1);
  if (params.scales2) PlanColumnQuant(plan, normalised, div_mode, *params.scales2, params.zero_points2, y2);
}

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                        const aclTensor* scales1, const aclTensor* scales2, const aclTensor* zero_points1,
                        const aclTensor* zero_points2, const aclTensor* y1, const aclTensor* y2,
                        const aclTensor* x_out) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kAddRmsNormQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kAddRmsNormQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, kAddRmsNormQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("scales1", scales1->dtype, kAddRmsNormQuantDtypes));
  if (scales2 != nullptr) CANOPY_CHECK(plan.CheckDtype("scales2Optional", scales2->dtype, kAddRmsNormQuantDtypes));
  if (zero_points1 != nullptr)
    CANOPY_CHECK(plan.CheckDtype("zeroPoints1Optional", zero_points1->dtype, kZeroPointDtypes));
  if (zero_points2 != nullptr)
    CANOPY_CHECK(plan.CheckDtype("zeroPoints2Optional", zero_points2->dtype, kZeroPointDtypes));
  CANOPY_CHECK(plan.CheckDtype("y1Out", y1->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("y2Out", y2->dtype, {y1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, kAddRmsNormQuantDtypes));
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShapes(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                        const aclTensor* scales1, const aclTensor* scales2, const aclTensor* zero_points1,
                        const aclTensor* zero_points2, const aclTensor* y1, const aclTensor* y2,
                        const aclTensor* x_out) {
  for (const auto& [name, t] : {std::pair{"x2", x2}, std::pair{"y1Out", y1}, std::pair{"xOut", x_out}}) {
    if (t->view_shape != x1->view_shape) {
      return plan.Reject(kShape, "argument '%s' has shape %s; expected x1's %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
    }
  }
  if (scales2 != nullptr && y2->view_shape != x1->view_shape) {
    return plan.Reject(kShape, "argument 'y2Out' has shape %s; expected x1's %s", ShapeToString(y2->view_shape).c_str(),
                       ShapeToString(x1->view_shape).c_str());
  }
  const auto gamma_rank = static_cast<std::ptrdiff_t>(gamma->rank());
  if (gamma->rank() > x1->rank() ||
      Shape(x1->view_shape.end() - gamma_rank, x1->view_shape.end()) != gamma->view_shape) {
    return plan.Reject(kShape, "argument 'gamma' has shape %s; it must equal trailing dims of x1's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  for (const auto& [name, t] :
       {std::pair{"scales1", scales1}, std::pair{"scales2Optional", scales2},
        std::pair{"zeroPoints1Optional", zero_points1}, std::pair{"zeroPoints2Optional", zero_points2}}) {
    if (t != nullptr && t->view_shape != gamma->view_shape) {
      return plan.Reject(kShape, "argument '%s' has shape %s; expected gamma's %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(gamma->view_shape).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddRmsNormQuant(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                const aclTensor* scales1, const aclTensor* scales2, const aclTensor* zero_points1,
                                const aclTensor* zero_points2, int64_t /*axis*/, double epsilon, bool div_mode,
                                const aclTensor* y1, const aclTensor* y2, const aclTensor* x_out) {
  CANOPY_CHECK(CheckDtypes(plan, x1, x2, gamma, scales1, scales2, zero_points1, zero_points2, y1, y2, x_out));
  for (const auto& [name, t] :
       {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"gamma", gamma}, std::pair{"scales1", scales1},
        std::pair{"scales2Optional", scales2}, std::pair{"zeroPoints1Optional", zero_points1},
        std::pair{"zeroPoints2Optional", zero_points2}, std::pair{"y1Out", y1}, std::pair{"y2Out", y2},
        std::pair{"xOut", x_out}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckRank(name, t, 1, 8));
  }
  const bool empty = x1->NumElements() == 0 || gamma->NumElements() == 0 || y2->NumElements() == 0;
  if (!empty) {
    CANOPY_CHECK(CheckShapes(plan, x1, x2, gamma, scales1, scales2, zero_points1, zero_points2, y1, y2, x_out));
  }
  const int64_t length = gamma->NumElements();
  const int64_t rows = empty ? 0 : x1->NumElements() / length;
  const NormPlan norm = AddRmsRows(epsilon, rows, length, x1, x2, gamma, x_out);
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  const QuantParams params = RegisterQuantParams(plan, scales1, scales2, zero_points1, zero_points2);
  const TensorRef y1_ref = plan.Output(y1, "y1Out");
  const TensorRef y2_ref = plan.Output(y2, "y2Out");
  RegisterRowNormOutputs(plan, norm, refs);
  if (empty) return ACLNN_SUCCESS;
  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {rows, length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  PlanQuantOutputs(plan, normalised, div_mode, params, y1_ref, y2_ref);
  return ACLNN_SUCCESS;
}

// ---- AddRmsNormQuantV2 -------------------------------------------------------------------------------

constexpr DtypeSet kV2XDtypes = {ACL_FLOAT16, ACL_BF16};
// FLOAT16 scales1 and INT8 zeroPoints1Optional are cast (to FLOAT, INT32) before CANN's checks.
constexpr DtypeSet kV2Scales1Dtypes = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16};
constexpr DtypeSet kV2Scales2Dtypes = {ACL_FLOAT, ACL_BF16};
constexpr DtypeSet kV2ZeroPoint1Dtypes = {ACL_INT32, ACL_BF16, ACL_INT8};
constexpr DtypeSet kV2ZeroPoint2Dtypes = {ACL_INT32, ACL_BF16};

bool IsSingle(const aclTensor* t) { return t != nullptr && t->view_shape == Shape{1}; }

// CANN's fused V2 kernel on A2: one scale and zero point, divMode, no second quantisation, gamma [D]
// or [1, D], and either the pre-norm form (betaOptional and xOut, no rmsNormOut) or the post-norm
// form (rmsNormOut, neither betaOptional nor xOut).
bool TakesFusedForm(const aclTensor* x1, const aclTensor* gamma, const aclTensor* scales1, const aclTensor* scales2,
                    const aclTensor* zero_points1, const aclTensor* zero_points2, const aclTensor* beta, bool div_mode,
                    const aclTensor* x_out, const aclTensor* rms_norm_out) {
  if (scales2 != nullptr || zero_points2 != nullptr || !div_mode) return false;
  if (gamma->view_shape == Shape{1} && beta == nullptr && rms_norm_out == nullptr) return false;
  const int64_t last = x1->rank() > 0 ? x1->view_shape.back() : -1;
  const bool gamma_fits = gamma->view_shape == Shape{last} || gamma->view_shape == Shape{1, last};
  const bool pre = beta != nullptr && x_out != nullptr && rms_norm_out == nullptr;
  const bool post = beta == nullptr && x_out == nullptr && rms_norm_out != nullptr;
  return gamma_fits && IsSingle(scales1) && IsSingle(zero_points1) && (pre || post);
}

aclnnStatus CheckFusedForm(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                           const aclTensor* scales1, const aclTensor* zero_points1, const aclTensor* beta,
                           const aclTensor* y1, const aclTensor* y2, const aclTensor* x_out,
                           const aclTensor* rms_norm_out) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kV2XDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kV2XDtypes));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, kV2XDtypes));
  CANOPY_CHECK(plan.CheckDtype("scales1", scales1->dtype, kV2Scales1Dtypes));
  if (beta != nullptr) CANOPY_CHECK(plan.CheckDtype("betaOptional", beta->dtype, kV2XDtypes));
  CANOPY_CHECK(plan.CheckDtype("zeroPoints1Optional", zero_points1->dtype, kV2ZeroPoint1Dtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("y1Out", y1->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("y2Out", y2->dtype, {ACL_INT8}));
  if (rms_norm_out != nullptr) CANOPY_CHECK(plan.CheckDtype("rmsNormOut", rms_norm_out->dtype, kV2XDtypes));
  if (x_out != nullptr) CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, kV2XDtypes));
  for (const auto& [name, t] : {std::pair{"y1Out", y1}, std::pair{"y2Out", y2}, std::pair{"rmsNormOut", rms_norm_out},
                                std::pair{"xOut", x_out}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckShape(name, t, x1->view_shape));
  }
  return ACLNN_SUCCESS;
}

// The unfused form (AddRmsNormQuant's kernel with a beta): CANN's A2 checks, all 161002 but a
// given rmsNormOut, which this form cannot write (161001).
aclnnStatus CheckUnfusedForm(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                             const aclTensor* scales1, const aclTensor* scales2, const aclTensor* zero_points1,
                             const aclTensor* zero_points2, const aclTensor* beta, const aclTensor* y1,
                             const aclTensor* y2, const aclTensor* x_out, const aclTensor* rms_norm_out) {
  if (rms_norm_out != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR,
                       "argument 'rmsNormOut' must be null unless the fused form applies (one scales1 and "
                       "zeroPoints1Optional value, divMode, no scales2Optional, betaOptional and xOut null)");
  }
  for (const auto& [name, t] :
       {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"scales1", scales1}, std::pair{"gamma", gamma},
        std::pair{"zeroPoints2Optional", zero_points2}, std::pair{"zeroPoints1Optional", zero_points1},
        std::pair{"scales2Optional", scales2}, std::pair{"betaOptional", beta}, std::pair{"xOut", x_out},
        std::pair{"y2Out", y2}, std::pair{"y1Out", y1}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckRank(name, t, 1, 8));
  }
  CANOPY_CHECK(plan.CheckDtype("scales1", scales1->dtype, kV2Scales1Dtypes));
  if (zero_points2 != nullptr)
    CANOPY_CHECK(plan.CheckDtype("zeroPoints2Optional", zero_points2->dtype, kV2ZeroPoint2Dtypes));
  if (zero_points1 != nullptr)
    CANOPY_CHECK(plan.CheckDtype("zeroPoints1Optional", zero_points1->dtype, kV2ZeroPoint1Dtypes));
  if (scales2 != nullptr) CANOPY_CHECK(plan.CheckDtype("scales2Optional", scales2->dtype, kV2Scales2Dtypes));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, kV2XDtypes));
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kV2XDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kV2XDtypes));
  if (beta != nullptr) CANOPY_CHECK(plan.CheckDtype("betaOptional", beta->dtype, kV2XDtypes));
  CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, kV2XDtypes));
  CANOPY_CHECK(plan.CheckDtype("y2Out", y2->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("y1Out", y1->dtype, {ACL_INT8}));
  for (const auto& [name, t] :
       {std::pair{"x2", x2}, std::pair{"y1Out", y1}, std::pair{"y2Out", y2}, std::pair{"xOut", x_out}}) {
    CANOPY_CHECK(plan.CheckShape(name, t, x1->view_shape));
  }
  for (const auto& [name, t] : {std::pair{"scales1", scales1}, std::pair{"scales2Optional", scales2},
                                std::pair{"zeroPoints1Optional", zero_points1},
                                std::pair{"zeroPoints2Optional", zero_points2}, std::pair{"betaOptional", beta}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckShape(name, t, gamma->view_shape));
  }
  const auto gamma_rank = static_cast<std::ptrdiff_t>(gamma->rank());
  if (gamma->rank() > x1->rank() ||
      Shape(x1->view_shape.end() - gamma_rank, x1->view_shape.end()) != gamma->view_shape) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'gamma' has shape %s; it must equal trailing dims of x1's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddRmsNormQuantV2(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                  const aclTensor* scales1, const aclTensor* scales2, const aclTensor* zero_points1,
                                  const aclTensor* zero_points2, const aclTensor* beta, int64_t /*axis*/,
                                  double epsilon, bool div_mode, const aclTensor* y1, const aclTensor* y2,
                                  const aclTensor* x_out, const aclTensor* rms_norm_out) {
  // CANN returns before any other check when x1, gamma or y2Out is empty.
  const bool empty = x1->NumElements() == 0 || gamma->NumElements() == 0 || y2->NumElements() == 0;
  bool fused = false;
  if (!empty) {
    fused =
        TakesFusedForm(x1, gamma, scales1, scales2, zero_points1, zero_points2, beta, div_mode, x_out, rms_norm_out);
    if (fused) {
      CANOPY_CHECK(CheckFusedForm(plan, x1, x2, gamma, scales1, zero_points1, beta, y1, y2, x_out, rms_norm_out));
    } else if (x_out == nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR,
                         "argument 'xOut' is null; only the fused post-norm form (rmsNormOut, one scales1 and "
                         "zeroPoints1Optional value, divMode, no betaOptional or scales2Optional) leaves it out");
    } else {
      CANOPY_CHECK(CheckUnfusedForm(plan, x1, x2, gamma, scales1, scales2, zero_points1, zero_points2, beta, y1, y2,
                                    x_out, rms_norm_out));
    }
  }
  const int64_t length = gamma->NumElements();
  const int64_t rows = empty ? 0 : x1->NumElements() / length;
  // xOut is registered below, in prototype order, rather than by RegisterRowNormOutputs.
  const NormPlan norm = AddRmsRows(epsilon, rows, length, x1, x2, gamma, x_out);
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  const QuantParams params = RegisterQuantParams(plan, scales1, scales2, zero_points1, zero_points2);
  const std::optional<TensorRef> beta_ref = OptionalInput(plan, beta, "betaOptional");
  if (beta_ref) refs.beta = {true, *beta_ref};
  const TensorRef y1_ref = plan.Output(y1, "y1Out");
  const TensorRef y2_ref = plan.Output(y2, "y2Out");
  const std::optional<TensorRef> x_out_ref = OptionalOutput(plan, x_out, "xOut");
  const std::optional<TensorRef> rms_norm_out_ref = OptionalOutput(plan, rms_norm_out, "rmsNormOut");
  if (x_out_ref) refs.sum = {true, *x_out_ref};
  if (empty) return ACLNN_SUCCESS;
  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {rows, length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  // The fused post-norm form has no beta: rmsNormOut is the quantised value itself.
  if (fused && rms_norm_out_ref) plan.Copy(*Reshape(normalised, rms_norm_out_ref->shape), *rms_norm_out_ref);
  PlanQuantOutputs(plan, normalised, div_mode, params, y1_ref, y2_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AddRmsNormQuant, PlanAddRmsNormQuant,
                (OpTraits{.header = "aclnnop/aclnn_add_rms_norm_quant.h",
                          .dtypes = kAddRmsNormQuantDtypes,
                          .example = "f16[2,8] f16[2,8] f16[8] f32[8]{0.5:2} f32[8]{0.5:2} i32[8] i32[8] -1 1e-6 true "
                                     "i8[2,8] i8[2,8] f16[2,8]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma), (const aclTensor*, scales1),
                (const aclTensor*, scales2Optional, optional), (const aclTensor*, zeroPoints1Optional, optional),
                (const aclTensor*, zeroPoints2Optional, optional), (int64_t, axis), (double, epsilon), (bool, divMode),
                (aclTensor*, y1Out), (aclTensor*, y2Out), (aclTensor*, xOut))
CANOPY_ACLNN_OP(AddRmsNormQuantV2, PlanAddRmsNormQuantV2,
                (OpTraits{
                    .header = "aclnnop/aclnn_add_rms_norm_quant_v2.h",
                    .dtypes = kV2XDtypes,
                    // !CODE (registry_example.h): the betaOptional path needs xOut
                    .example = "f16[2,8] f16[2,8] f16[8] f32[8]{0.5:2} f32[8]{0.5:2} i32[8] i32[8] f16[8] -1 1e-6 "
                               "true i8[2,8] i8[2,8] f16[2,8]!161001 -"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma), (const aclTensor*, scales1),
                (const aclTensor*, scales2Optional, optional), (const aclTensor*, zeroPoints1Optional, optional),
                (const aclTensor*, zeroPoints2Optional, optional), (const aclTensor*, betaOptional, optional),
                (int64_t, axis), (double, epsilon), (bool, divMode), (aclTensor*, y1Out), (aclTensor*, y2Out),
                (aclTensor*, xOut, optional), (aclTensor*, rmsNormOut, optional))
