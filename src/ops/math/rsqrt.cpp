// aclnnRsqrt, aclnnInplaceRsqrt: out = 1 / sqrt(self) (torch.rsqrt; inf at 0, NaN below 0).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_rsqrt.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kRsqrt,
    .self = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_UINT8, ACL_INT8, ACL_INT16,
                     ACL_INT32, ACL_INT64, ACL_BOOL, ACL_BF16},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanRsqrt(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceRsqrt(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_rsqrt.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Rsqrt, PlanRsqrt, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRsqrt, PlanInplaceRsqrt,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
