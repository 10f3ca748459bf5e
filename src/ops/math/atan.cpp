// aclnnAtan, aclnnInplaceAtan: out = atan(input) (torch.atan).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_atan.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kAtan,
    .self = DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                     ACL_BF16},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16},
    .policy = UnaryPolicy::kPromoteIntegers,
    .self_name = "input",
    .inplace_name = "inputRef",
};

aclnnStatus PlanAtan(Plan& plan, const aclTensor* input, const aclTensor* out) {
  return PlanUnary(plan, kRule, input, out);
}
aclnnStatus PlanInplaceAtan(Plan& plan, const aclTensor* inputRef) { return PlanInplaceUnary(plan, kRule, inputRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_atan.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Atan, PlanAtan, kTraits, (const aclTensor*, input), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAtan, PlanInplaceAtan,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, inputRef))
