// aclnnGroupNorm: self [N, C, ...] in `group` groups of C / group channels, each
// group normalised over its channels' HxW elements, then scaled and shifted per channel.
#include "aclnnop/aclnn_group_norm.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGroupNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

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

}  // namespace

CANOPY_ACLNN_OP(GroupNorm, PlanGroupNorm,
                (OpTraits{.header = "aclnnop/aclnn_group_norm.h",
                          .dtypes = kGroupNormDtypes,
                          .example = "f32[2,4,3] f32[4] f32[4] 2 4 3 2 1e-5 f32[2,4,3] f32[2,2] f32[2,2]"}),
                (const aclTensor*, self), (const aclTensor*, gamma, optional), (const aclTensor*, beta, optional),
                (int64_t, N), (int64_t, C), (int64_t, HxW), (int64_t, group), (double, eps), (aclTensor*, out),
                (aclTensor*, meanOut), (aclTensor*, rstdOut))
