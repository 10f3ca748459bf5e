// aclnnRound, aclnnInplaceRound: out = round(self), halves to even (torch.round); integers unchanged; out has self's
// dtype. Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_round.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kRound,
    .self = DtypeSet{ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64},
    .out = DtypeSet{ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64},
    .inplace = DtypeSet{ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64},
    .policy = UnaryPolicy::kSameAsInput,
    .out_same_dtype = true,
};

aclnnStatus PlanRound(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceRound(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_round.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Round, PlanRound, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRound, PlanInplaceRound,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}),
                (const aclTensor*, selfRef))
