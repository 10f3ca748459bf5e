// aclnnAsinh, aclnnInplaceAsinh: out = asinh(input) (torch.asinh).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_asinh.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kAsinh,
    .self =
        DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
    .policy = UnaryPolicy::kPromoteIntegers,
    .self_name = "input",
    .inplace_name = "inputRef",
};

aclnnStatus PlanAsinh(Plan& plan, const aclTensor* input, const aclTensor* out) {
  return PlanUnary(plan, kRule, input, out);
}
aclnnStatus PlanInplaceAsinh(Plan& plan, const aclTensor* inputRef) { return PlanInplaceUnary(plan, kRule, inputRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_asinh.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Asinh, PlanAsinh, kTraits, (const aclTensor*, input), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAsinh, PlanInplaceAsinh,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, inputRef))
