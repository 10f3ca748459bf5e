// aclnnRmsNormQuant: y = round((x / rms(x) * gamma + beta) / scale + offset) over x's last dim, the
// norm in f32 by the row-norm step, then AscendQuantV3's kernel (half to even, saturating, NaN
// gives 0). A2: x, gamma, beta and scale FLOAT16 or BFLOAT16 of one dtype, offset INT8, scale and
// offset one value ([1]), gamma and beta [D] or [1, D]; y INT8, INT4 or INT32 (eight INT4, its
// last extent D / 8; INT4 / INT32 y contiguous). y has x's shape, as the doc says (CANN's A2 code
// compares only the last dims). Every fault is 161002.
#include "aclnnop/aclnn_rms_norm_quant.h"
#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRmsNormQuantDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kQuantOutDtypes = {ACL_INT8, ACL_INT4, ACL_INT32};
constexpr int64_t kInt4PerInt32 = 8;

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

  NormPlan norm;
  norm.kind = kernels::NormKind::kRms;
  norm.eps = epsilon;
  norm.length = length;
  norm.rows = x->NumElements() / length;
  norm.x = Given(x, "x");
  norm.gamma = Given(gamma, "gamma");
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

}  // namespace

CANOPY_ACLNN_OP(RmsNormQuant, PlanRmsNormQuant,
                (OpTraits{.header = "aclnnop/aclnn_rms_norm_quant.h",
                          .dtypes = kRmsNormQuantDtypes,
                          .example = "f16[3,5] f16[1,5] f16[1,5] f16[1]{0.5:2} i8[1] 1e-6 i8[3,5]"}),
                (const aclTensor*, x), (const aclTensor*, gamma), (const aclTensor*, beta), (const aclTensor*, scale),
                (const aclTensor*, offset), (double, epsilon), (aclTensor*, y))
