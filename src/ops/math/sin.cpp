// aclnnSin, aclnnInplaceSin: out = sin(self) (torch.sin). Bool and integer inputs compute in FLOAT.
#include "aclnnop/aclnn_sin.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr UnaryRule kSin{.op = UnaryOp::kSin,
                         .self = kFloats | DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL},
                         .out = kFloats,
                         .inplace = DtypeSet{ACL_FLOAT, ACL_BF16, ACL_FLOAT16},
                         .policy = UnaryPolicy::kPromoteIntegers,
                         .self_name = "self",
                         .inplace_name = "selfRef"};

aclnnStatus PlanSin(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kSin, self, out);
}
aclnnStatus PlanInplaceSin(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kSin, selfRef); }

}  // namespace

CANOPY_ACLNN_OP(Sin, PlanSin, (OpTraits{.header = "aclnnop/aclnn_sin.h", .dtypes = kSin.self}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceSin, PlanInplaceSin,
                (OpTraits{.header = "aclnnop/aclnn_sin.h", .dtypes = kSin.inplace, .in_place = true}),
                (aclTensor*, selfRef))
