// aclnnForeachNorm: out[i] = the p-norm of all of x[i], (sum |x[i]|^p)^(1/p)
// (torch._foreach_norm), each out[i] one element of x's dtype, on the reduction engine.
#include "aclnnop/aclnn_foreach_norm.h"
#include "foreach.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanForeachNormOp(Plan& plan, const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out) {
  return PlanForeachNorm(plan, kNormDtypes, {ACL_FLOAT, ACL_DOUBLE, ACL_INT64}, x, scalar, out);
}

}  // namespace

CANOPY_ACLNN_OP(ForeachNorm, PlanForeachNormOp,
                (OpTraits{.header = "aclnnop/aclnn_foreach_norm.h",
                          .dtypes = kNormDtypes,
                          .example = "(f32[2,3],f32[4]) f32:2 (f32[1],f32[1])"}),
                (const aclTensorList*, x), (const aclScalar*, scalar), (const aclTensorList*, out))
