// aclnnNorm: the p-norm of self over dim, (sum |self|^p)^(1/p), on the reduction
// engine (p 0 counts non-zeros, +-inf takes the largest / smallest |self|).
#include "aclnnop/aclnn_norm.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanNorm(Plan& plan, const aclTensor* self, const aclScalar* p_scalar, const aclIntArray* dim, bool keepdim,
                     const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kNormDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kNormDtypes));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  const double p = ValueOf(*p_scalar).real;
  if (self->NumElements() == 0) {
    // The norm of nothing is 0, whatever p (CANN fills out).
    CANOPY_CHECK(plan.CheckShape("out", out, ReducedShape(self->view_shape, reduced, keepdim)));
    plan.Input(self, "self");
    const TensorRef dst = plan.Output(out, "out");
    plan.Fill(dst, ScalarValue::Real(0));
    return ACLNN_SUCCESS;
  }
  return PlanReduction(plan, kernels::ReduceKind::kNorm, self, reduced, keepdim, out->dtype, out, p);
}

}  // namespace

CANOPY_ACLNN_OP(Norm, PlanNorm, (OpTraits{.header = "aclnnop/aclnn_norm.h", .dtypes = kNormDtypes}),
                (const aclTensor*, self), (const aclScalar*, pScalar), (const aclIntArray*, dim), (bool, keepdim),
                (aclTensor*, out))
