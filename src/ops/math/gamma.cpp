// aclnnDigamma (torch.digamma: -inf at 0, NaN at the negative integers) and
// aclnnLgamma (log |Gamma(x)|, +inf at the poles). out has self's dtype and
// shape. Dtypes: the Atlas A2 column of CANN's documents (no BF16).
#include "aclnnop/aclnn_digamma.h"
#include "aclnnop/aclnn_lgamma.h"
#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGammaDtypes = {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16};
constexpr UnaryRule kRule{.self = kGammaDtypes, .out = kGammaDtypes, .out_same_dtype = true};

template <PointwiseOp kOp>
aclnnStatus PlanGammaFunction(Plan& plan, const aclTensor* self, const aclTensor* out) {
  // CANN checks that out has self's dtype before self's list.
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must have self's dtype %s",
                       DtypeName(out->dtype), DtypeName(self->dtype));
  }
  return PlanUnaryPointwise(plan, kRule, kOp, self, out);
}

constexpr const char* kExample = "f32[2,3]{0.5:4} f32[2,3]";

}  // namespace

CANOPY_ACLNN_OP(Digamma, PlanGammaFunction<PointwiseOp::kDigamma>,
                (OpTraits{.header = "aclnnop/aclnn_digamma.h", .dtypes = kGammaDtypes, .example = kExample}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(Lgamma, PlanGammaFunction<PointwiseOp::kLgamma>,
                (OpTraits{.header = "aclnnop/aclnn_lgamma.h", .dtypes = kGammaDtypes, .example = kExample}),
                (const aclTensor*, self), (aclTensor*, out))
