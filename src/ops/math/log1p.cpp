// aclnnLog1p, aclnnInplaceLog1p: out = ln(1 + self) (torch.log1p), exact near 0.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_log1p.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kLog1p,
    .self = DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                     ACL_BF16},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanLog1p(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceLog1p(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_log1p.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Log1p, PlanLog1p, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLog1p, PlanInplaceLog1p,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
