// aclnnSqrt, aclnnInplaceSqrt: out = sqrt(self) (torch.sqrt; NaN below 0). Bool and integer inputs compute in FLOAT.
#include "aclnnop/aclnn_sqrt.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN names the in-place argument `self`; the registry calls every in-place first argument selfRef.

constexpr DtypeSet kFloats = {ACL_COMPLEX64, ACL_COMPLEX128, ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
constexpr UnaryRule kSqrt{.op = UnaryOp::kSqrt,
                          .self = kFloats | DtypeSet{ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_BOOL},
                          .out = kFloats,
                          .inplace = kFloats,
                          .policy = UnaryPolicy::kPromoteIntegers,
                          .self_name = "self",
                          .inplace_name = "selfRef"};

aclnnStatus PlanSqrt(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kSqrt, self, out);
}
aclnnStatus PlanInplaceSqrt(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kSqrt, selfRef); }

}  // namespace

CANOPY_ACLNN_OP(Sqrt, PlanSqrt, (OpTraits{.header = "aclnnop/aclnn_sqrt.h", .dtypes = kSqrt.self}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceSqrt, PlanInplaceSqrt,
                (OpTraits{.header = "aclnnop/aclnn_sqrt.h", .dtypes = kSqrt.inplace, .in_place = true}),
                (aclTensor*, selfRef))
