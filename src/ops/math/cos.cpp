// aclnnCos, aclnnInplaceCos: out = cos(input) (torch.cos). Bool and integer inputs compute in FLOAT.
#include "aclnnop/aclnn_cos.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN names the in-place argument `inputRef`; the registry calls every in-place first argument selfRef.

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr UnaryRule kCos{.op = UnaryOp::kCos,
                         .self = kFloats | DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL},
                         .out = kFloats,
                         .inplace = kFloats,
                         .policy = UnaryPolicy::kPromoteIntegers,
                         .self_name = "input",
                         .inplace_name = "selfRef"};

aclnnStatus PlanCos(Plan& plan, const aclTensor* input, const aclTensor* out) {
  return PlanUnary(plan, kCos, input, out);
}
aclnnStatus PlanInplaceCos(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kCos, selfRef); }

}  // namespace

CANOPY_ACLNN_OP(Cos, PlanCos, (OpTraits{.header = "aclnnop/aclnn_cos.h", .dtypes = kCos.self}),
                (const aclTensor*, input), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceCos, PlanInplaceCos,
                (OpTraits{.header = "aclnnop/aclnn_cos.h", .dtypes = kCos.inplace, .in_place = true}),
                (aclTensor*, selfRef))
