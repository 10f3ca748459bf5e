// aclnnExp2, aclnnInplaceExp2: out = 2^self (torch.exp2).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_exp2.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kExp2,
    .self = DtypeSet{ACL_BOOL, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
                     ACL_DOUBLE},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanExp2(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceExp2(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_exp2.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Exp2, PlanExp2, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceExp2, PlanInplaceExp2,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
