// aclnnSoftplus: log(1 + e^(beta self)) / beta, self itself where beta self > threshold
// (torch.nn.functional.softplus).
#include "aclnnop/aclnn_softplus.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSoftplusDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};
constexpr UnaryRule kSoftplus{.op = UnaryOp::kSoftplus, .self = kSoftplusDtypes, .out = kSoftplusDtypes};

aclnnStatus PlanSoftplus(Plan& plan, const aclTensor* self, const aclScalar* beta, const aclScalar* threshold,
                         const aclTensor* out) {
  // The device computes in f32: beta and threshold as f32 values.
  const UnaryParams params{.a = static_cast<float>(ValueOf(*beta).real),
                           .b = static_cast<float>(ValueOf(*threshold).real)};
  return PlanUnary(plan, kSoftplus, self, out, params,
                   {{"beta", beta, ScalarRule::kCastsToSelf}, {"threshold", threshold, ScalarRule::kCastsToSelf}});
}

}  // namespace

CANOPY_ACLNN_OP(Softplus, PlanSoftplus, (OpTraits{.header = "aclnnop/aclnn_softplus.h", .dtypes = kSoftplusDtypes}),
                (const aclTensor*, self), (const aclScalar*, beta), (const aclScalar*, threshold), (aclTensor*, out))
