// aclnnErfc, aclnnInplaceErfc: out = 1 - erf(self) (torch.erfc), kept exact in the tail. BFLOAT16 is listed for A3
// only. Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_erfc.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kErfc,
    .self = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_BOOL, ACL_INT64},
    .out = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16},
    .inplace = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanErfc(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceErfc(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_erfc.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Erfc, PlanErfc, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceErfc, PlanInplaceErfc,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}),
                (const aclTensor*, selfRef))
