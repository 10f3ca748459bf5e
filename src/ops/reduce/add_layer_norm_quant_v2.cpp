// aclnnAddLayerNormQuantV2: x = x1 + x2 + biasOptional (xOut), y = LayerNorm(x) * gamma + beta over
// the trailing dims gamma spans (layernormRes), in f32 by the row-norm step, then y1Out = round(y *
// scales1Optional + zeroPoints1Optional) saturated to INT8, half to even, and y2Out likewise from
// scales2Optional / zeroPoints2Optional when scales2Optional is given (else left alone, as CANN copies
// it only then). One scale and zero point per column, or one for all (the per-tensor form: gamma
// [1, D] and a one-value scales1Optional). A2 runs the static form only.
//
// CANN's A2 path as its host code and kernel have it: quantMode must begin with "static" (161002);
// the kernel multiplies by the scale whatever divMode says (the doc's A2 note allows only divMode
// false) and Canopy writes xOut whatever additionalOutput says. Dtypes (161002): x1 FLOAT / FLOAT16 /
// BFLOAT16, x2, gamma, beta, biasOptional, xOut and layernormRes x1's, y1Out and y2Out INT8, the
// out scales FLOAT, scales1Optional x1's (the op definition pairs them; the doc's A2 note too), the
// other scales and zero points scales1Optional's. Shapes (161002): beta gamma's, gamma x1's trailing
// dims (the doc's error list), scales1Optional gamma's (per column) or [1] with gamma [1, D] (per
// tensor) and needed, zero points their scales' shape, x2 / xOut / y1Out / layernormRes (and y2Out
// with scales2Optional) x1's, biasOptional gamma's or x1's. The tiling takes the scale and zero point
// combinations of the doc's table only (561002). An empty x1, gamma, y2Out or out scale computes
// nothing, as CANN's host code returns at once there.
#include <cstring>
#include <optional>

#include "aclnnop/aclnn_add_layer_norm_quant_v2.h"

#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kXDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr char kStatic[] = "static";

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                        const aclTensor* beta, const aclTensor* bias, const aclTensor* scales1,
                        const aclTensor* scales2, const aclTensor* zero_points1, const aclTensor* zero_points2,
                        const aclTensor* y1, const aclTensor* y2, const aclTensor* x_out, const aclTensor* res,
                        const aclTensor* out_scales1, const aclTensor* out_scales2) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kXDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("beta", beta->dtype, {x1->dtype}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("biasOptional", bias->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("y1Out", y1->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("y2Out", y2->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("layernormRes", res->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("outScales1Out", out_scales1->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("outScales2Out", out_scales2->dtype, {ACL_FLOAT}));
  if (scales1 == nullptr) return ACLNN_SUCCESS;
  CANOPY_CHECK(plan.CheckDtype("scales1Optional", scales1->dtype, {x1->dtype}));
  for (const auto& [name, t] : {std::pair{"scales2Optional", scales2}, std::pair{"zeroPoints1Optional", zero_points1},
                                std::pair{"zeroPoints2Optional", zero_points2}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {scales1->dtype}));
  }
  return ACLNN_SUCCESS;
}

// Whether gamma is x1's trailing dims.
bool TrailingDimsOf(const aclTensor* gamma, const aclTensor* x1) {
  if (gamma->rank() > x1->rank()) return false;
  const auto gamma_rank = static_cast<std::ptrdiff_t>(gamma->rank());
  return Shape(x1->view_shape.end() - gamma_rank, x1->view_shape.end()) == gamma->view_shape;
}

aclnnStatus CheckShapes(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                        const aclTensor* beta, const aclTensor* bias, const aclTensor* scales1,
                        const aclTensor* scales2, const aclTensor* zero_points1, const aclTensor* zero_points2,
                        const aclTensor* y1, const aclTensor* y2, const aclTensor* x_out, const aclTensor* res,
                        bool& per_tensor) {
  CANOPY_CHECK(plan.CheckShape("beta", beta, gamma->view_shape));
  if (scales1 == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'scales1Optional' is null; the static form needs it");
  }
  const int64_t last = x1->rank() > 0 ? x1->view_shape.back() : -1;
  per_tensor = gamma->view_shape == Shape{1, last} && scales1->view_shape == Shape{1};
  const bool per_channel = scales1->view_shape == gamma->view_shape && TrailingDimsOf(gamma, x1);
  if (!per_tensor && !per_channel) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "gamma %s and scales1Optional %s fit neither form: gamma x1's (%s) trailing dims with "
                       "scales1Optional of its shape, or gamma [1, %lld] with scales1Optional [1]",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(scales1->view_shape).c_str(),
                       ShapeToString(x1->view_shape).c_str(), static_cast<long long>(last));
  }
  for (const auto& [name, t] :
       {std::pair{"x2", x2}, std::pair{"xOut", x_out}, std::pair{"y1Out", y1}, std::pair{"layernormRes", res}}) {
    CANOPY_CHECK(plan.CheckShape(name, t, x1->view_shape));
  }
  if (scales2 != nullptr) CANOPY_CHECK(plan.CheckShape("y2Out", y2, x1->view_shape));
  if (zero_points1 != nullptr) CANOPY_CHECK(plan.CheckShape("zeroPoints1Optional", zero_points1, scales1->view_shape));
  if (scales2 != nullptr && zero_points2 != nullptr)
    CANOPY_CHECK(plan.CheckShape("zeroPoints2Optional", zero_points2, scales2->view_shape));
  if (bias != nullptr && bias->view_shape != gamma->view_shape && bias->view_shape != x1->view_shape) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'biasOptional' has shape %s; it must be gamma's %s or x1's %s",
                       ShapeToString(bias->view_shape).c_str(), ShapeToString(gamma->view_shape).c_str(),
                       ShapeToString(x1->view_shape).c_str());
  }
  // The tiling's combinations: scales1 alone or with zeroPoints1, and the same pair twice.
  const bool sole = scales2 == nullptr && zero_points2 == nullptr;
  const bool dual = scales2 != nullptr && (zero_points1 != nullptr) == (zero_points2 != nullptr);
  if (!sole && !dual) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "scales2Optional and zeroPoints2Optional must come as scales1Optional and zeroPoints1Optional "
                       "do (zeroPoints2Optional only with scales2Optional and zeroPoints1Optional)");
  }
  return ACLNN_SUCCESS;
}

// round(rows * scale + zero_point) into INT8, one scale per column or one for all.
void PlanQuant(Plan& plan, const TensorRef& rows, const TensorRef& scale, const std::optional<TensorRef>& zero_point,
               const TensorRef& out) {
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.in_dtype = rows.dtype;
  desc.out_dtype = ACL_INT8;
  desc.elements = rows.NumElements();
  desc.axis_extent = rows.shape[1];
  desc.param_dtype = scale.dtype;
  desc.param_count = scale.NumElements();
  AddAffineStep(plan, desc, rows, scale, zero_point ? &*zero_point : nullptr, out);
}

aclnnStatus PlanAddLayerNormQuantV2(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                    const aclTensor* beta, const aclTensor* bias, const aclTensor* scales1,
                                    const aclTensor* scales2, const aclTensor* zero_points1,
                                    const aclTensor* zero_points2, const char* quant_mode, double epsilon,
                                    bool /*additional_output*/, bool /*div_mode*/, const aclTensor* y1,
                                    const aclTensor* y2, const aclTensor* x_out, const aclTensor* res,
                                    const aclTensor* out_scales1, const aclTensor* out_scales2) {
  if (std::strncmp(quant_mode, kStatic, std::strlen(kStatic)) != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'quantMode' is \"%s\"; Atlas A2 runs \"static\" only",
                       quant_mode);
  }
  CANOPY_CHECK(CheckDtypes(plan, x1, x2, gamma, beta, bias, scales1, scales2, zero_points1, zero_points2, y1, y2, x_out,
                           res, out_scales1, out_scales2));
  bool per_tensor = false;
  CANOPY_CHECK(CheckShapes(plan, x1, x2, gamma, beta, bias, scales1, scales2, zero_points1, zero_points2, y1, y2, x_out,
                           res, per_tensor));
  const bool empty = x1->NumElements() == 0 || gamma->NumElements() == 0 || y2->NumElements() == 0 ||
                     out_scales1->NumElements() == 0 || out_scales2->NumElements() == 0;
  if (!empty && (x1->rank() == 0 || gamma->rank() == 0)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "arguments 'x1' and 'gamma' need at least one dim");
  }

  NormPlan norm;
  norm.kind = kernels::NormKind::kLayer;
  norm.eps = epsilon;
  norm.length = per_tensor ? gamma->view_shape.back() : gamma->NumElements();
  norm.rows = empty ? 0 : x1->NumElements() / norm.length;
  norm.x = Given(x1, "x1");
  norm.x2 = Given(x2, "x2");
  norm.gamma = Given(gamma, "gamma");
  norm.beta = Given(beta, "beta");
  norm.bias = Given(bias, "biasOptional");
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  const TensorRef scales1_ref = plan.Input(scales1, "scales1Optional");
  const std::optional<TensorRef> scales2_ref = OptionalInput(plan, scales2, "scales2Optional");
  const std::optional<TensorRef> zero_points1_ref = OptionalInput(plan, zero_points1, "zeroPoints1Optional");
  const std::optional<TensorRef> zero_points2_ref = OptionalInput(plan, zero_points2, "zeroPoints2Optional");
  const TensorRef y1_ref = plan.Output(y1, "y1Out");
  const TensorRef y2_ref = plan.Output(y2, "y2Out");
  refs.sum = {true, plan.Output(x_out, "xOut")};
  refs.y2 = {true, plan.Output(res, "layernormRes")};  // y in x1's dtype, beside the f32 y quantised below
  plan.Output(out_scales1, "outScales1Out");           // the dynamic form's outputs: never written on A2
  plan.Output(out_scales2, "outScales2Out");
  if (empty) return ACLNN_SUCCESS;

  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {norm.rows, norm.length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  PlanQuant(plan, normalised, scales1_ref, zero_points1_ref, y1_ref);
  if (scales2_ref) PlanQuant(plan, normalised, *scales2_ref, zero_points2_ref, y2_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AddLayerNormQuantV2, PlanAddLayerNormQuantV2,
                (OpTraits{
                    .header = "aclnnop/aclnn_add_layer_norm_quant_v2.h",
                    .dtypes = kXDtypes,
                    // !CODE (registry_example.h): the static form (A2 only) needs scales1Optional
                    .example = "f16[2,32] f16[2,32] f16[1,32] f16[1,32] f16[1,32] f16[1]{0.5:2}!161002 - f16[1] - "
                               "'static' 1e-6 true false i8[2,32] i8[2,32] f16[2,32] f16[2,32] f32[2] f32[2]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma), (const aclTensor*, beta),
                (const aclTensor*, biasOptional, optional), (const aclTensor*, scales1Optional, optional),
                (const aclTensor*, scales2Optional, optional), (const aclTensor*, zeroPoints1Optional, optional),
                (const aclTensor*, zeroPoints2Optional, optional), (const char*, quantMode), (double, epsilon),
                (bool, additionalOutput), (bool, divMode), (aclTensor*, y1Out), (aclTensor*, y2Out), (aclTensor*, xOut),
                (aclTensor*, layernormRes), (aclTensor*, outScales1Out), (aclTensor*, outScales2Out))
