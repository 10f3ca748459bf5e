// aclnnAcosh, aclnnInplaceAcosh: out = acosh(self) (torch.acosh; NaN below 1).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_acosh.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kAcosh,
    .self = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE},
    .out = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE},
    .inplace = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE},
    .policy = UnaryPolicy::kSameAsInput,
};

aclnnStatus PlanAcosh(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceAcosh(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_acosh.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Acosh, PlanAcosh, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAcosh, PlanInplaceAcosh,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
