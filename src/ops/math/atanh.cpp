// aclnnAtanh, aclnnInplaceAtanh: out = atanh(input) (torch.atanh; +-inf at +-1, NaN outside).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_atanh.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kAtanh,
    .self =
        DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .policy = UnaryPolicy::kPromoteIntegers,
    .self_name = "input",
    .inplace_name = "inputRef",
};

aclnnStatus PlanAtanh(Plan& plan, const aclTensor* input, const aclTensor* out) {
  return PlanUnary(plan, kRule, input, out);
}
aclnnStatus PlanInplaceAtanh(Plan& plan, const aclTensor* inputRef) { return PlanInplaceUnary(plan, kRule, inputRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_atanh.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Atanh, PlanAtanh, kTraits, (const aclTensor*, input), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAtanh, PlanInplaceAtanh,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, inputRef))
