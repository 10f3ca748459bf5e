// aclnnSoftshrink: self - lambd above lambd, self + lambd below -lambd, else 0
// (torch.nn.functional.softshrink; CANN's formula, so NaN gives 0). lambd is
// read as a FLOAT and must be >= 0 (161002); out takes any listed dtype self
// casts to.
#include "aclnnop/aclnn_softshrink.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSoftshrinkDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr UnaryRule kSoftshrink{.op = UnaryOp::kSoftshrink, .self = kSoftshrinkDtypes, .out = kSoftshrinkDtypes};

aclnnStatus PlanSoftshrink(Plan& plan, const aclTensor* self, const aclScalar* lambd, const aclTensor* out) {
  const double value = static_cast<float>(ScalarIn(*lambd, ACL_FLOAT).real);
  if (value < 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalar 'lambd' is %g; it must be >= 0", value);
  return PlanUnary(plan, kSoftshrink, self, out, UnaryParams{.a = value},
                   {{"lambd", lambd, ScalarRule::kCastsToFloat}});
}

constexpr OpTraits kTraits{
    .header = "aclnnop/aclnn_softshrink.h", .dtypes = kSoftshrinkDtypes, .example = "f32[2,3] f32:0.5 f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Softshrink, PlanSoftshrink, kTraits, (const aclTensor*, self), (const aclScalar*, lambd),
                (aclTensor*, out))
