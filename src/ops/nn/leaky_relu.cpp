// aclnnLeakyRelu, aclnnInplaceLeakyRelu: self > 0 ? self : negativeSlope * self
// (torch.nn.functional.leaky_relu). CANN reads negativeSlope as a float.
#include "aclnnop/aclnn_leaky_relu.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLeakyReluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// Only the in-place form lists DOUBLE on A2.
constexpr UnaryRule kLeakyRelu{.op = UnaryOp::kLeakyRelu,
                               .self = kLeakyReluDtypes,
                               .out = kLeakyReluDtypes,
                               .inplace = kLeakyReluDtypes | DtypeSet{ACL_DOUBLE}};

UnaryParams Slope(const aclScalar* negativeSlope) {
  return UnaryParams{.a = static_cast<float>(ScalarIn(*negativeSlope, ACL_FLOAT).real)};
}

aclnnStatus PlanLeakyRelu(Plan& plan, const aclTensor* self, const aclScalar* negativeSlope, const aclTensor* out) {
  return PlanUnary(plan, kLeakyRelu, self, out, Slope(negativeSlope));
}
aclnnStatus PlanInplaceLeakyRelu(Plan& plan, const aclTensor* selfRef, const aclScalar* negativeSlope) {
  return PlanInplaceUnary(plan, kLeakyRelu, selfRef, Slope(negativeSlope));
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_leaky_relu.h", .dtypes = kLeakyReluDtypes};

}  // namespace

CANOPY_ACLNN_OP(LeakyRelu, PlanLeakyRelu, kTraits, (const aclTensor*, self), (const aclScalar*, negativeSlope),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLeakyRelu, PlanInplaceLeakyRelu,
                (OpTraits{.header = kTraits.header, .dtypes = kLeakyRelu.inplace, .in_place = true}),
                (aclTensor*, selfRef), (const aclScalar*, negativeSlope))
