// aclnnHardsigmoid, aclnnInplaceHardsigmoid: clamp(self / 6 + 1/2, 0, 1)
// (torch.nn.functional.hardsigmoid); INT32 computes in float and truncates (0 or 1).
#include "aclnnop/aclnn_hardsigmoid.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN names the in-place argument `self`; the registry calls every in-place first argument selfRef.
constexpr DtypeSet kHardsigmoidDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BF16};
constexpr UnaryRule kHardsigmoid{.op = UnaryOp::kHardsigmoid,
                                 .self = kHardsigmoidDtypes,
                                 .out = kHardsigmoidDtypes,
                                 .inplace = kHardsigmoidDtypes,
                                 .out_same_dtype = true};

aclnnStatus PlanHardsigmoid(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kHardsigmoid, self, out);
}
aclnnStatus PlanInplaceHardsigmoid(Plan& plan, const aclTensor* selfRef) {
  return PlanInplaceUnary(plan, kHardsigmoid, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_hardsigmoid.h", .dtypes = kHardsigmoidDtypes};

}  // namespace

CANOPY_ACLNN_OP(Hardsigmoid, PlanHardsigmoid, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceHardsigmoid, PlanInplaceHardsigmoid, InPlace(kTraits), (const aclTensor*, selfRef))
