// aclnnFrac, aclnnInplaceFrac: out = input - trunc(input) (torch.frac); 0 for integers; out has input's dtype.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_frac.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kFrac,
    .self = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BF16},
    .out = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BF16},
    .policy = UnaryPolicy::kSameAsInput,
    .out_same_dtype = true,
    .self_name = "input",
    .inplace_name = "inputRef",
};

aclnnStatus PlanFrac(Plan& plan, const aclTensor* input, const aclTensor* out) {
  return PlanUnary(plan, kRule, input, out);
}
aclnnStatus PlanInplaceFrac(Plan& plan, const aclTensor* inputRef) { return PlanInplaceUnary(plan, kRule, inputRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_frac.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Frac, PlanFrac, kTraits, (const aclTensor*, input), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceFrac, PlanInplaceFrac,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, inputRef))
