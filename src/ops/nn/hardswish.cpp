// aclnnHardswish, aclnnInplaceHardswish: x * clamp(x + 3, 0, 6) / 6 (torch.nn.functional.hardswish).
#include "aclnnop/aclnn_hardswish.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN names the in-place argument `self`; the registry calls every in-place first argument selfRef.
constexpr DtypeSet kHardswishDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT};
constexpr UnaryRule kHardswish{
    .op = UnaryOp::kHardswish, .self = kHardswishDtypes, .out = kHardswishDtypes, .inplace = kHardswishDtypes};

aclnnStatus PlanHardswish(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kHardswish, self, out);
}
aclnnStatus PlanInplaceHardswish(Plan& plan, const aclTensor* selfRef) {
  return PlanInplaceUnary(plan, kHardswish, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_hardswish.h", .dtypes = kHardswishDtypes};

}  // namespace

CANOPY_ACLNN_OP(Hardswish, PlanHardswish, kTraits, (const aclTensor*, self), (const aclTensor*, out))
CANOPY_ACLNN_OP(InplaceHardswish, PlanInplaceHardswish, InPlace(kTraits), (const aclTensor*, selfRef))
