// aclnnLog10, aclnnInplaceLog10: out = log10(self) (torch.log10). Dtypes: the Atlas A2 column of CANN's
// document. Its out list has no DOUBLE, but its rule (out has self's dtype for a floating self), the in-place
// form and CANN's own example program (DOUBLE in, DOUBLE out) all take it, so out does too.
#include "aclnnop/aclnn_log10.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kLog10,
    .self = DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                     ACL_BF16, ACL_COMPLEX64, ACL_COMPLEX128},
    .out = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_COMPLEX64, ACL_COMPLEX128},
    .inplace = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_COMPLEX64, ACL_COMPLEX128},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanLog10(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceLog10(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_log10.h", .dtypes = kRule.self, .example = "f32[2,3] f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Log10, PlanLog10, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLog10, PlanInplaceLog10,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true, .example = "f32[2,3]"}),
                (aclTensor*, selfRef))
