// aclnnExpm1, aclnnInplaceExpm1: out = e^self - 1 (torch.expm1), exact near 0.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_expm1.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kExpm1,
    .self = DtypeSet{ACL_INT64, ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanExpm1(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceExpm1(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_expm1.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Expm1, PlanExpm1, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceExpm1, PlanInplaceExpm1,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
