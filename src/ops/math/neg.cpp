// aclnnNeg, aclnnInplaceNeg: out = -self (torch.neg); integers wrap.
#include "aclnnop/aclnn_neg.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNegDtypes = {ACL_INT8,  ACL_INT32,  ACL_INT64,     ACL_FLOAT16,   ACL_BF16,
                                 ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr UnaryRule kNeg{.op = UnaryOp::kNeg, .self = kNegDtypes, .out = kNegDtypes, .inplace = kNegDtypes};

aclnnStatus PlanNeg(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kNeg, self, out);
}
aclnnStatus PlanInplaceNeg(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kNeg, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_neg.h", .dtypes = kNegDtypes};

}  // namespace

CANOPY_ACLNN_OP(Neg, PlanNeg, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceNeg, PlanInplaceNeg, InPlace(kTraits), (aclTensor*, selfRef))
