// aclnnReciprocal, aclnnInplaceReciprocal: out = 1 / self (torch.reciprocal).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_reciprocal.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kReciprocal,
    .self = DtypeSet{ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT16,
                     ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL},
    .out = DtypeSet{ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
    .inplace = DtypeSet{ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanReciprocal(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceReciprocal(Plan& plan, const aclTensor* selfRef) {
  return PlanInplaceUnary(plan, kRule, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_reciprocal.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Reciprocal, PlanReciprocal, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceReciprocal, PlanInplaceReciprocal,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}),
                (const aclTensor*, selfRef))
