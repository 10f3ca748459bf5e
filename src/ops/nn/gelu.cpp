// aclnnGelu: the tanh approximation of GELU, self / 2 (1 + tanh(sqrt(2/pi) (self + 0.044715 self^3)))
// (CANN's document and kernel; torch.nn.functional.gelu(approximate='tanh')).
// aclnnGeluV2: approximate 1 the same, any other value the exact x Phi(x)
// (CANN maps 1 to "tanh" and everything else to "none").
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGeluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr UnaryRule kGelu{.op = UnaryOp::kGeluTanh, .self = kGeluDtypes, .out = kGeluDtypes, .out_same_dtype = true};
constexpr int64_t kApproximateTanh = 1;

aclnnStatus PlanGelu(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kGelu, self, out);
}

aclnnStatus PlanGeluV2(Plan& plan, const aclTensor* x, int64_t approximate, const aclTensor* y) {
  UnaryRule rule = kGelu;
  rule.op = approximate == kApproximateTanh ? UnaryOp::kGeluTanh : UnaryOp::kGeluErf;
  rule.self_name = "x";
  rule.out_name = "y";
  return PlanUnary(plan, rule, x, y);
}

}  // namespace

CANOPY_ACLNN_OP(Gelu, PlanGelu, (OpTraits{.header = "aclnnop/aclnn_gelu.h", .dtypes = kGeluDtypes}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(GeluV2, PlanGeluV2, (OpTraits{.header = "aclnnop/aclnn_gelu_v2.h", .dtypes = kGeluDtypes}),
                (const aclTensor*, x), (int64_t, approximate), (aclTensor*, y))
