// aclnnIsInf: out = isinf(x) (torch.isinf; integers and bool are finite). CANN documents 561002 for rank above 8;
// Canopy gives the kit's 161002; out is BOOL. Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_is_inf.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kIsInf,
    .self = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8,
                     ACL_BOOL},
    .out = DtypeSet{ACL_BOOL},
    .policy = UnaryPolicy::kBoolOut,
    .out_same_dtype = true,
    .self_name = "x",
};

aclnnStatus PlanIsInf(Plan& plan, const aclTensor* x, const aclTensor* out) { return PlanUnary(plan, kRule, x, out); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_is_inf.h", .dtypes = kRule.self, .example = "f32[2,3] bool[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(IsInf, PlanIsInf, kTraits, (const aclTensor*, x), (const aclTensor*, out))
