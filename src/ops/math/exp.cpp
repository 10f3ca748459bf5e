// aclnnExp, aclnnInplaceExp: out = e^self (torch.exp). Bool and int64 inputs compute in FLOAT.
#include "aclnnop/aclnn_exp.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr UnaryRule kExp{.op = UnaryOp::kExp,
                         .self = kFloats | DtypeSet{ACL_BOOL, ACL_INT64},
                         .out = kFloats,
                         .inplace = kFloats,
                         .policy = UnaryPolicy::kPromoteIntegers};

aclnnStatus PlanExp(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kExp, self, out);
}
aclnnStatus PlanInplaceExp(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kExp, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_exp.h", .dtypes = kExp.self};

}  // namespace

CANOPY_ACLNN_OP(Exp, PlanExp, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceExp, PlanInplaceExp, InPlace(kTraits), (aclTensor*, selfRef))
