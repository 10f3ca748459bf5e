// aclnnAddRmsNormQuant: x = x1 + x2 (xOut), y = RmsNorm(x) * gamma over the trailing dims gamma
// spans, in f32 by the row-norm step, then y1Out = round(y / scales1 + zeroPoints1Optional) (y *
// scales1 when divMode is false) and, only when scales2Optional is given, y2Out likewise (else y2Out
// is left alone, as CANN copies it only then): one scale and zero point per column, half to even,
// saturating to INT8. A2 dtypes as CANN's host code checks them (wider than the doc's two rows):
// x1, x2, gamma, scales and xOut FLOAT / FLOAT16 / BFLOAT16, zero points INT32 / FLOAT / FLOAT16 /
// BFLOAT16, y1Out and y2Out of one dtype, INT8 only (the FP8 / HIFLOAT8 outputs are 950-only), all
// 161002, as is a rank below 1. Shapes are the tiling's (561002). An empty x1, gamma or y2Out
// computes nothing, as CANN's host code returns at once there. axis: only -1 takes effect (the doc).
#include <optional>

#include "aclnnop/aclnn_add_rms_norm_quant.h"

#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAddRmsNormQuantDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kZeroPointDtypes = {ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;  // CANN's tiling checks the shapes

// y = round(rows / scale + zero_point) (or rows * scale), one scale and zero point per column.
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
  desc.param_count = rows.shape[1];
  if (zero_point) desc.offset_dtype = zero_point->dtype;
  AddAffineStep(plan, desc, rows, scale, zero_point ? &*zero_point : nullptr, out);
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
  const TensorRef scales1_ref = plan.Input(scales1, "scales1");
  const std::optional<TensorRef> scales2_ref = OptionalInput(plan, scales2, "scales2Optional");
  const std::optional<TensorRef> zero_points1_ref = OptionalInput(plan, zero_points1, "zeroPoints1Optional");
  const std::optional<TensorRef> zero_points2_ref = OptionalInput(plan, zero_points2, "zeroPoints2Optional");
  const TensorRef y1_ref = plan.Output(y1, "y1Out");
  const TensorRef y2_ref = plan.Output(y2, "y2Out");
  RegisterRowNormOutputs(plan, norm, refs);
  if (empty) return ACLNN_SUCCESS;
  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {rows, length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  PlanColumnQuant(plan, normalised, div_mode, scales1_ref, zero_points1_ref, y1_ref);
  if (scales2_ref) PlanColumnQuant(plan, normalised, div_mode, *scales2_ref, zero_points2_ref, y2_ref);
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
