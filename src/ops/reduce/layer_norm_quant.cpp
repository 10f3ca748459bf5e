// aclnnLayerNormQuant: y = LayerNorm(x) * gamma + beta over x's last dim, in f32 by the row-norm
// step, then res = round(y * (1 / scale) + zeroPointsOptional) into INT8 as CANN's A2 kernel does
// it: the reciprocal of the one scale value (a zero scale taken as 1), the f32 value cast to f16,
// saturated, then rounded half to even. Only the static form exists (quantMode 0; scaleOut is
// then unused, so it may be null, as CANN's host code reads it only for quantMode 1).
//
// A2 as CANN's host code checks it: x FLOAT16 / BFLOAT16 (the doc's FLOAT32 is for other SoCs),
// gamma, beta and scale x's dtype, zeroPointsOptional INT8 (needed: quantMode 0 checks it for
// null, 161001), res INT8; gamma rank at most 2 with x's last extent, beta gamma's shape, scale
// [1] and zeroPointsOptional of scale's rank, res x's shape; all 161002. The kernel reads one
// row of gamma and beta and one scale and zero point value. An empty x computes nothing.
#include "aclnnop/aclnn_layer_norm_quant.h"

#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLayerNormQuantDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxXRank = 8;
constexpr int64_t kMaxGammaRank = 2;
constexpr int kStaticQuant = 0;

aclnnStatus CheckShapes(Plan& plan, const aclTensor* x, const aclTensor* gamma, const aclTensor* beta,
                        const aclTensor* scale, const aclTensor* zero_points, int quant_mode, const aclTensor* res) {
  CANOPY_CHECK(plan.CheckRank("x", x, 1, kMaxXRank));
  CANOPY_CHECK(plan.CheckRank("gamma", gamma, 1, kMaxGammaRank));
  if (quant_mode != kStaticQuant) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'quantMode' is %d; only 0 (static) is supported", quant_mode);
  }
  if (gamma->view_shape.back() != x->view_shape.back()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'gamma' has shape %s; its last dim must be x's (%s)",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x->view_shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("beta", beta, gamma->view_shape));
  CANOPY_CHECK(plan.CheckShape("scale", scale, {1}));
  if (zero_points->rank() != scale->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'zeroPointsOptional' has shape %s; it must have scale's rank",
                       ShapeToString(zero_points->view_shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("res", res, x->view_shape));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanLayerNormQuant(Plan& plan, const aclTensor* x, const aclTensor* gamma, const aclTensor* beta,
                               const aclTensor* scale, const aclTensor* zero_points, int quant_mode, double epsilon,
                               const aclTensor* res, const aclTensor* scale_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kLayerNormQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("beta", beta->dtype, {x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, {x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("zeroPointsOptional", zero_points->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("res", res->dtype, {ACL_INT8}));
  CANOPY_CHECK(CheckShapes(plan, x, gamma, beta, scale, zero_points, quant_mode, res));
  const bool empty = x->NumElements() == 0;
  // CANN's kernel reads the first value of each; an empty one would be read past its end.
  if (!empty && zero_points->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'zeroPointsOptional' is empty; it needs one value");
  }

  NormPlan norm;
  norm.kind = kernels::NormKind::kLayer;
  norm.eps = epsilon;
  norm.length = x->view_shape.back();
  norm.rows = empty ? 0 : x->NumElements() / norm.length;
  norm.x = Given(x, "x");
  norm.gamma = Given(gamma, "gamma");
  norm.beta = Given(beta, "beta");
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  const TensorRef scale_ref = plan.Input(scale, "scale");
  const TensorRef zero_points_ref = plan.Input(zero_points, "zeroPointsOptional");
  const TensorRef res_ref = plan.Output(res, "res");
  (void)OptionalOutput(plan, scale_out, "scaleOut");  // quantMode 1's output: never written
  if (empty) return ACLNN_SUCCESS;

  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {norm.rows, norm.length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  // One scale and zero point value: CANN's kernel reads the first of each.
  PlanReciprocalQuant(plan, normalised, scale_ref, &zero_points_ref, res_ref, 1, 1, true);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(LayerNormQuant, PlanLayerNormQuant,
                (OpTraits{.header = "aclnnop/aclnn_layer_norm_quant.h",
                          .dtypes = kLayerNormQuantDtypes,
                          .example = "f16[1,1,32] f16[1,32] f16[1,32] f16[1]{0.5:2} i8[1] 0 1e-6 i8[1,1,32] f32[1,1]"}),
                (const aclTensor*, x), (const aclTensor*, gamma), (const aclTensor*, beta), (const aclTensor*, scale),
                (const aclTensor*, zeroPointsOptional), (int, quantMode), (double, epsilon), (aclTensor*, res),
                (aclTensor*, scaleOut, optional))
