// aclnnTrunc, aclnnInplaceTrunc: out = trunc(self) (torch.trunc); out has self's dtype.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_trunc.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kTrunc,
    .self = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
    .policy = UnaryPolicy::kSameAsInput,
    .out_same_dtype = true,
};

aclnnStatus PlanTrunc(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceTrunc(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_trunc.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Trunc, PlanTrunc, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceTrunc, PlanInplaceTrunc,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
