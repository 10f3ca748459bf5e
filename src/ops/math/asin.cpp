// aclnnAsin, aclnnInplaceAsin: out = asin(self) (torch.asin; NaN outside [-1, 1]).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_asin.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kAsin,
    .self =
        DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanAsin(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceAsin(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_asin.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Asin, PlanAsin, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAsin, PlanInplaceAsin,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
