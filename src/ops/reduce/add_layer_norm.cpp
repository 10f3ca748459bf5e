// aclnnAddLayerNorm: LayerNorm of x = x1 + x2 (+ biasOptional) over the
// trailing dims gamma spans, with x (xOut), the mean and rstd (FLOAT, one per
// row) as outputs; the row-normalisation kernel with a second addend. Shape
// faults are 561002, as CANN's tiling reports them.
#include "aclnnop/aclnn_add_layer_norm.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAddLayerNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// CANN's dtype table (Atlas A2): x1 and x2 of one dtype D with every other tensor D (gamma and beta D or
// FLOAT), or one of them FLOAT and every other tensor FLOAT; meanOut and rstdOut FLOAT.
aclnnStatus CheckDtypes(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                        const aclTensor* beta, const aclTensor* bias, const aclTensor* y, const aclTensor* mean,
                        const aclTensor* rstd, const aclTensor* x_out) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kAddLayerNormDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kAddLayerNormDtypes));
  if (x1->dtype != x2->dtype && x1->dtype != ACL_FLOAT && x2->dtype != ACL_FLOAT) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'x1' (%s) and 'x2' (%s) differ and neither is FLOAT",
                       DtypeName(x1->dtype), DtypeName(x2->dtype));
  }
  const aclDataType data = x1->dtype == x2->dtype ? x1->dtype : ACL_FLOAT;
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {data, ACL_FLOAT}));
  if (x1->dtype != x2->dtype) CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("beta", beta->dtype, {gamma->dtype}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("biasOptional", bias->dtype, {data}));
  CANOPY_CHECK(plan.CheckDtype("yOut", y->dtype, {data}));
  CANOPY_CHECK(plan.CheckDtype("meanOut", mean->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("rstdOut", rstd->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, {data}));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddLayerNorm(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                             const aclTensor* beta, const aclTensor* bias, double epsilon, bool /*additional_output*/,
                             const aclTensor* y, const aclTensor* mean, const aclTensor* rstd, const aclTensor* x_out) {
  CANOPY_CHECK(CheckDtypes(plan, x1, x2, gamma, beta, bias, y, mean, rstd, x_out));
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;
  const Shape& shape = x1->view_shape;
  if (x1->rank() < 1) return plan.Reject(kShape, "argument 'x1' has rank 0; it needs at least one dim");
  for (const auto& [name, t] : {std::pair{"x2", x2}, std::pair{"yOut", y}, std::pair{"xOut", x_out}}) {
    if (t->view_shape != shape) {
      return plan.Reject(kShape, "argument '%s' has shape %s; expected x1's %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(shape).c_str());
    }
  }
  if (beta->view_shape != gamma->view_shape) {
    return plan.Reject(kShape, "argument 'beta' has shape %s; expected gamma's %s",
                       ShapeToString(beta->view_shape).c_str(), ShapeToString(gamma->view_shape).c_str());
  }
  const int64_t trailing = gamma->rank();
  const size_t leading = shape.size() - static_cast<size_t>(std::min<int64_t>(trailing, x1->rank()));
  if (trailing < 1 || trailing > x1->rank() ||
      !std::equal(gamma->view_shape.begin(), gamma->view_shape.end(),
                  shape.begin() + static_cast<std::ptrdiff_t>(leading))) {
    return plan.Reject(kShape, "argument 'gamma' has shape %s; it must equal trailing dims of x1's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(shape).c_str());
  }
  Shape stat(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(leading));
  stat.resize(shape.size(), 1);
  for (const auto& [name, t] : {std::pair{"meanOut", mean}, std::pair{"rstdOut", rstd}}) {
    if (t->view_shape != stat) {
      return plan.Reject(kShape, "argument '%s' has shape %s; expected %s (x1's leading dims, then 1s)", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(stat).c_str());
    }
  }
  for (const int64_t extent : shape) {
    if (extent == 0)
      return plan.Reject(kShape, "argument 'x1' has shape %s: CANN takes no dim of extent 0",
                         ShapeToString(shape).c_str());
  }
  if (bias != nullptr && bias->view_shape != gamma->view_shape && bias->view_shape != shape) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'biasOptional' has shape %s; it must be gamma's %s or x1's %s",
                       ShapeToString(bias->view_shape).c_str(), ShapeToString(gamma->view_shape).c_str(),
                       ShapeToString(shape).c_str());
  }
  NormPlan norm;
  norm.kind = kernels::NormKind::kLayer;
  norm.eps = epsilon;
  norm.length = gamma->NumElements();
  norm.rows = x1->NumElements() / norm.length;
  norm.x = Given(x1, "x1");
  norm.x2 = Given(x2, "x2");
  norm.gamma = Given(gamma, "gamma");
  norm.beta = Given(beta, "beta");
  norm.bias = Given(bias, "biasOptional");
  norm.y = Given(y, "yOut");
  norm.mean = Given(mean, "meanOut");
  norm.rstd = Given(rstd, "rstdOut");
  // xOut is written whatever additionalOutput says (CANN leaves it unspecified when false).
  norm.sum = Given(x_out, "xOut");
  return PlanRowNorm(plan, norm);
}

}  // namespace

CANOPY_ACLNN_OP(AddLayerNorm, PlanAddLayerNorm,
                (OpTraits{
                    .header = "aclnnop/aclnn_add_layer_norm.h",
                    .dtypes = kAddLayerNormDtypes,
                    .example = "f32[2,3] f32[2,3] f32[3] f32[3] - 1e-5 true f32[2,3] f32[2,1] f32[2,1] f32[2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma), (const aclTensor*, beta),
                (const aclTensor*, biasOptional, optional), (double, epsilon), (bool, additionalOutput),
                (const aclTensor*, yOut), (const aclTensor*, meanOut), (const aclTensor*, rstdOut),
                (const aclTensor*, xOut))
