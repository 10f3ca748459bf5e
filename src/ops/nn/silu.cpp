// aclnnSilu: out = self * sigmoid(self) (torch.nn.functional.silu); out has self's dtype.
#include "aclnnop/aclnn_silu.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSiluDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};
constexpr UnaryRule kSilu{.op = UnaryOp::kSilu, .self = kSiluDtypes, .out = kSiluDtypes, .out_same_dtype = true};

aclnnStatus PlanSilu(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kSilu, self, out);
}

}  // namespace

CANOPY_ACLNN_OP(Silu, PlanSilu, (OpTraits{.header = "aclnnop/aclnn_silu.h", .dtypes = kSiluDtypes}),
                (const aclTensor*, self), (aclTensor*, out))
