// aclnnDeepNorm: LayerNorm of x' = alpha * x + gx over the trailing dims gamma
// spans, with the mean and rstd (FLOAT, one per row); the row-normalisation
// kernel with x scaled in f32 and gx as the second addend.
#include <algorithm>

#include "aclnnop/aclnn_deep_norm.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDeepNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanDeepNorm(Plan& plan, const aclTensor* x, const aclTensor* gx, const aclTensor* beta,
                         const aclTensor* gamma, double alpha, double epsilon, const aclTensor* mean,
                         const aclTensor* rstd, const aclTensor* y) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kDeepNormDtypes));
  for (const auto& [name, t] :
       {std::pair{"gx", gx}, std::pair{"beta", beta}, std::pair{"gamma", gamma}, std::pair{"yOut", y}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {x->dtype}));
  }
  CANOPY_CHECK(plan.CheckDtype("meanOut", mean->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("rstdOut", rstd->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckRank("x", x, 2, 8));
  CANOPY_CHECK(plan.CheckShape("gx", gx, x->view_shape));
  CANOPY_CHECK(plan.CheckShape("yOut", y, x->view_shape));
  CANOPY_CHECK(plan.CheckRank("gamma", gamma, 1, x->rank()));
  const Shape& shape = x->view_shape;
  const size_t leading = shape.size() - gamma->view_shape.size();
  if (!std::equal(gamma->view_shape.begin(), gamma->view_shape.end(),
                  shape.begin() + static_cast<std::ptrdiff_t>(leading))) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'gamma' has shape %s; it must equal trailing dims of x's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("beta", beta, gamma->view_shape));
  Shape stat(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(leading));
  stat.resize(shape.size(), 1);
  CANOPY_CHECK(plan.CheckShape("meanOut", mean, stat));
  CANOPY_CHECK(plan.CheckShape("rstdOut", rstd, stat));
  NormPlan norm;
  norm.kind = kernels::NormKind::kLayer;
  norm.eps = epsilon;
  norm.x_scale = alpha;
  norm.beta_before_gamma = true;
  norm.stats_before_y = true;
  norm.length = gamma->NumElements();
  // An empty x or gamma computes nothing.
  norm.rows = norm.length == 0 ? 0 : x->NumElements() / norm.length;
  norm.x = Given(x, "x");
  norm.x2 = Given(gx, "gx");
  norm.beta = Given(beta, "beta");
  norm.gamma = Given(gamma, "gamma");
  norm.y = Given(y, "yOut");
  norm.mean = Given(mean, "meanOut");
  norm.rstd = Given(rstd, "rstdOut");
  return PlanRowNorm(plan, norm);
}

}  // namespace

CANOPY_ACLNN_OP(DeepNorm, PlanDeepNorm,
                (OpTraits{.header = "aclnnop/aclnn_deep_norm.h",
                          .dtypes = kDeepNormDtypes,
                          .example = "f32[2,3] f32[2,3] f32[3] f32[3] 0.3 1e-6 f32[2,1] f32[2,1] f32[2,3]"}),
                (const aclTensor*, x), (const aclTensor*, gx), (const aclTensor*, beta), (const aclTensor*, gamma),
                (double, alpha), (double, epsilon), (const aclTensor*, meanOut), (const aclTensor*, rstdOut),
                (const aclTensor*, yOut))
