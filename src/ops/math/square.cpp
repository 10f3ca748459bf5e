// aclnnSquare: out = self * self (torch.square); integers wrap; out has self's dtype.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_square.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kSquare,
    .self = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64},
    .inplace = DtypeSet{},
    .policy = UnaryPolicy::kSameAsInput,
    .out_same_dtype = true,
};

aclnnStatus PlanSquare(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_square.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Square, PlanSquare, kTraits, (const aclTensor*, self), (aclTensor*, out))
