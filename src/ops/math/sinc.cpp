// aclnnSinc, aclnnInplaceSinc: sin(pi x) / (pi x), 1 at 0 (torch.sinc). Bool
// and integer inputs compute in FLOAT; the result is cast to out's floating
// dtype. Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_sinc.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr UnaryRule kRule{
    .self = kFloats | DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL},
    .out = kFloats,
    .inplace = kFloats,
    .policy = UnaryPolicy::kPromoteIntegers,
};

aclnnStatus PlanSinc(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnaryPointwise(plan, kRule, PointwiseOp::kSinc, self, out);
}
aclnnStatus PlanInplaceSinc(Plan& plan, const aclTensor* selfRef) {
  return PlanInplaceUnaryPointwise(plan, kRule, PointwiseOp::kSinc, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_sinc.h", .dtypes = kRule.self, .example = "f32[2,3] f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Sinc, PlanSinc, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceSinc, PlanInplaceSinc,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true, .example = "f32[2,3]"}),
                (aclTensor*, selfRef))
