// aclnnSinh, aclnnInplaceSinh: out = sinh(self) (torch.sinh).
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_sinh.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kSinh,
    .self = DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL, ACL_FLOAT16, ACL_BF16, ACL_FLOAT,
                     ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128},
    .out = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
    .inplace = DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16},
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanSinh(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceSinh(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_sinh.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Sinh, PlanSinh, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceSinh, PlanInplaceSinh,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
