// aclnnCosh, aclnnInplaceCosh: out = cosh(self) (torch.cosh).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_cosh.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kCosh,
    .self = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .policy = UnaryPolicy::kSameAsInput,
};

aclnnStatus PlanCosh(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceCosh(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_cosh.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Cosh, PlanCosh, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceCosh, PlanInplaceCosh,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
