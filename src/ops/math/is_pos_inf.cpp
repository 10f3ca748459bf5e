// aclnnIsPosInf: out = (self == +inf) (torch.isposinf); out is BOOL.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_isposinf.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kIsPosInf,
    .self = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16},
    .out = DtypeSet{ACL_BOOL},
    .policy = UnaryPolicy::kBoolOut,
    .out_same_dtype = true,
};

aclnnStatus PlanIsPosInf(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_isposinf.h", .dtypes = kRule.self, .example = "f32[2,3] bool[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(IsPosInf, PlanIsPosInf, kTraits, (const aclTensor*, self), (aclTensor*, out))
