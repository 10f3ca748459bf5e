// aclnnHardshrink: |self| <= lambd ? 0 : self (torch.nn.functional.hardshrink;
// NaN passes through). lambd is read as a FLOAT and a negative one taken as
// 0, as CANN's op layer does; out takes any listed dtype self casts to.
#include "aclnnop/aclnn_hardshrink.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHardshrinkDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT};
constexpr UnaryRule kHardshrink{.op = UnaryOp::kHardshrink, .self = kHardshrinkDtypes, .out = kHardshrinkDtypes};

aclnnStatus PlanHardshrink(Plan& plan, const aclTensor* self, const aclScalar* lambd, const aclTensor* out) {
  const double value = static_cast<float>(ScalarIn(*lambd, ACL_FLOAT).real);
  return PlanUnary(plan, kHardshrink, self, out, UnaryParams{.a = value < 0 ? 0.0 : value},
                   {{"lambd", lambd, ScalarRule::kCastsToFloat}});
}

constexpr OpTraits kTraits{
    .header = "aclnnop/aclnn_hardshrink.h", .dtypes = kHardshrinkDtypes, .example = "f32[2,3] f32:0.5 f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Hardshrink, PlanHardshrink, kTraits, (const aclTensor*, self), (const aclScalar*, lambd),
                (aclTensor*, out))
