// aclnnErf, aclnnInplaceErf: out = erf(self) (torch.erf). BFLOAT16 is listed for A3 only.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_erf.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kErf,
    .self = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_BOOL, ACL_INT64},
    .out = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16},
    .inplace = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanErf(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceErf(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_erf.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Erf, PlanErf, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceErf, PlanInplaceErf,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
