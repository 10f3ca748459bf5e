// aclnnSelu, aclnnInplaceSelu: scale (max(0, x) + min(0, alpha (e^x - 1))) with
// SELU's constants (torch.nn.functional.selu): Elu's functor with inputScale 1.
// INT32 and INT8 compute in float and truncate to self's dtype; out takes any
// listed dtype self casts to (CANN's code checks each list, not equality).
#include "aclnnop/aclnn_selu.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSeluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT8, ACL_BF16};
constexpr UnaryRule kSelu{.op = UnaryOp::kElu, .self = kSeluDtypes, .out = kSeluDtypes, .inplace = kSeluDtypes};

// The constants as the device holds them (FLOAT values).
constexpr UnaryParams kSeluParams{
    .a = static_cast<float>(1.6732632423543772848), .b = static_cast<float>(1.0507009873554804934), .c = 1};

aclnnStatus PlanSelu(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kSelu, self, out, kSeluParams);
}
aclnnStatus PlanInplaceSelu(Plan& plan, const aclTensor* selfRef) {
  return PlanInplaceUnary(plan, kSelu, selfRef, kSeluParams);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_selu.h", .dtypes = kSeluDtypes};

}  // namespace

CANOPY_ACLNN_OP(Selu, PlanSelu, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceSelu, PlanInplaceSelu, InPlace(kTraits), (aclTensor*, selfRef))
