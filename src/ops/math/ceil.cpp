// aclnnCeil, aclnnInplaceCeil: out = ceil(self) (torch.ceil); out has self's dtype.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_ceil.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kCeil,
    .self = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16},
    .out = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16},
    .policy = UnaryPolicy::kSameAsInput,
    .out_same_dtype = true,
};

aclnnStatus PlanCeil(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceCeil(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_ceil.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Ceil, PlanCeil, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceCeil, PlanInplaceCeil,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
