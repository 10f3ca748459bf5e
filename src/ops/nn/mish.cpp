// aclnnMish, aclnnInplaceMish: self tanh(softplus(self)) (torch.nn.functional.mish).
// out must have self's dtype and shape (CANN's code checks both).
#include "aclnnop/aclnn_mish.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMishDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};
constexpr UnaryRule kMish{
    .op = UnaryOp::kMish, .self = kMishDtypes, .out = kMishDtypes, .inplace = kMishDtypes, .out_same_dtype = true};

aclnnStatus PlanMish(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kMish, self, out);
}
aclnnStatus PlanInplaceMish(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kMish, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_mish.h", .dtypes = kMishDtypes};

}  // namespace

CANOPY_ACLNN_OP(Mish, PlanMish, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceMish, PlanInplaceMish, InPlace(kTraits), (aclTensor*, selfRef))
