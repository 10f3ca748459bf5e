// aclnnElu, aclnnInplaceElu: scale self for self > 0, else alpha scale (e^(self inputScale) - 1)
// (torch.nn.functional.elu with scale = inputScale = 1).
#include "aclnnop/aclnn_elu.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kEluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// Only the in-place form lists DOUBLE on A2.
constexpr UnaryRule kElu{
    .op = UnaryOp::kElu, .self = kEluDtypes, .out = kEluDtypes, .inplace = kEluDtypes | DtypeSet{ACL_DOUBLE}};

// The attributes are FLOAT values on the device.
UnaryParams EluParams(const aclScalar* alpha, const aclScalar* scale, const aclScalar* inputScale) {
  const auto f32 = [](const aclScalar* s) { return static_cast<double>(static_cast<float>(ValueOf(*s).real)); };
  return UnaryParams{.a = f32(alpha), .b = f32(scale), .c = f32(inputScale)};
}

aclnnStatus PlanElu(Plan& plan, const aclTensor* self, const aclScalar* alpha, const aclScalar* scale,
                    const aclScalar* inputScale, const aclTensor* out) {
  return PlanUnary(plan, kElu, self, out, EluParams(alpha, scale, inputScale),
                   {{"alpha", alpha, ScalarRule::kCastsToFloat},
                    {"scale", scale, ScalarRule::kCastsToFloat},
                    {"inputScale", inputScale, ScalarRule::kCastsToFloat}});
}
aclnnStatus PlanInplaceElu(Plan& plan, const aclTensor* selfRef, const aclScalar* alpha, const aclScalar* scale,
                           const aclScalar* inputScale) {
  return PlanInplaceUnary(plan, kElu, selfRef, EluParams(alpha, scale, inputScale),
                          {{"alpha", alpha, ScalarRule::kCastsToFloat},
                           {"scale", scale, ScalarRule::kCastsToFloat},
                           {"inputScale", inputScale, ScalarRule::kCastsToFloat}});
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_elu.h", .dtypes = kEluDtypes};

}  // namespace

CANOPY_ACLNN_OP(Elu, PlanElu, kTraits, (const aclTensor*, self), (const aclScalar*, alpha), (const aclScalar*, scale),
                (const aclScalar*, inputScale), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceElu, PlanInplaceElu,
                (OpTraits{.header = kTraits.header, .dtypes = kElu.inplace, .in_place = true}), (aclTensor*, selfRef),
                (const aclScalar*, alpha), (const aclScalar*, scale), (const aclScalar*, inputScale))
