// aclnnForeachNonFiniteCheckAndUnscale (torch._amp_foreach_non_finite_check_and_unscale_):
// foundInf becomes 1 when some tensor of scaledGrads holds an inf or NaN (it keeps
// its value otherwise), and every tensor of scaledGrads is multiplied by invScale in place.
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "foreach.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGradDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanUnscale(Plan& plan, const aclTensorList* scaledGrads, const aclTensor* foundInf,
                        const aclTensor* invScale) {
  return PlanForeachNonFiniteCheckAndUnscale(plan, kGradDtypes, scaledGrads, foundInf, invScale);
}

}  // namespace

CANOPY_ACLNN_OP(ForeachNonFiniteCheckAndUnscale, PlanUnscale,
                (OpTraits{.header = "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h",
                          .dtypes = kGradDtypes,
                          .example = "(f32[2,3],f32[4]) f32[1] f32[1]"}),
                (const aclTensorList*, scaledGrads), (const aclTensor*, foundInf), (const aclTensor*, invScale))
