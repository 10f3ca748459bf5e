// aclnnLog2, aclnnInplaceLog2: out = log2(self) (torch.log2; NaN below 0, -inf at 0).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_log2.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kLog2,
    .self = DtypeSet{ACL_BOOL, ACL_INT64, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                     ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanLog2(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceLog2(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_log2.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Log2, PlanLog2, kTraits, (const aclTensor*, self), (const aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLog2, PlanInplaceLog2,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}),
                (const aclTensor*, selfRef))
