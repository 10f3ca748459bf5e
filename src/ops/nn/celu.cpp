// aclnnCelu, aclnnInplaceCelu: max(0, x) + min(0, alpha (e^(x / alpha) - 1))
// (torch.nn.functional.celu). For any alpha != 0 that is x above 0 and
// alpha expm1(x / alpha) elsewhere: Elu's functor with scale 1 and
// inputScale 1 / alpha. alpha must cast to FLOAT and not be 0 (161002).
#include "aclnnop/aclnn_celu.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCeluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr UnaryRule kCelu{.op = UnaryOp::kElu, .self = kCeluDtypes, .out = kCeluDtypes, .inplace = kCeluDtypes};

// alpha as the device holds it (a FLOAT).
double AlphaOf(const aclScalar* alpha) { return static_cast<float>(ScalarIn(*alpha, ACL_FLOAT).real); }

UnaryParams CeluParams(const aclScalar* alpha) {
  const double a = AlphaOf(alpha);
  return UnaryParams{.a = a, .b = 1, .c = 1 / a};
}

aclnnStatus CheckAlpha(Plan& plan, const aclScalar* alpha) {
  if (IsComplex(alpha->dtype) || AlphaOf(alpha) != 0) return ACLNN_SUCCESS;  // complex: the dtype check rejects it
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalar 'alpha' is 0; CELU divides by it");
}

aclnnStatus PlanCelu(Plan& plan, const aclTensor* self, const aclScalar* alpha, const aclTensor* out) {
  CANOPY_CHECK(CheckAlpha(plan, alpha));
  return PlanUnary(plan, kCelu, self, out, CeluParams(alpha), {{"alpha", alpha, ScalarRule::kCastsToFloat}});
}
aclnnStatus PlanInplaceCelu(Plan& plan, const aclTensor* selfRef, const aclScalar* alpha) {
  CANOPY_CHECK(CheckAlpha(plan, alpha));
  return PlanInplaceUnary(plan, kCelu, selfRef, CeluParams(alpha), {{"alpha", alpha, ScalarRule::kCastsToFloat}});
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_celu.h", .dtypes = kCeluDtypes};

}  // namespace

CANOPY_ACLNN_OP(Celu, PlanCelu, kTraits, (const aclTensor*, self), (const aclScalar*, alpha), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceCelu, PlanInplaceCelu, InPlace(kTraits), (aclTensor*, selfRef), (const aclScalar*, alpha))
