// aclnnErfinv, aclnnInplaceErfinv: the inverse error function (torch.erfinv;
// +-inf at +-1, NaN outside [-1, 1]). FLOAT16, FLOAT and BF16 compute in their
// own dtype, bool and integers in FLOAT; the result must be castable to out
// (CANN checks no list for out, only castability: a DOUBLE out is taken, an
// integer out or selfRef is not).
#include "aclnnop/aclnn_erfinv.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr UnaryRule kRule{.self = kFloats | DtypeSet{ACL_BOOL, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8},
                          .out = kFloats | DtypeSet{ACL_DOUBLE},
                          .inplace = kFloats,
                          .policy = UnaryPolicy::kPromoteIntegers};

aclnnStatus PlanErfinv(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnaryPointwise(plan, kRule, PointwiseOp::kErfinv, self, out);
}
aclnnStatus PlanInplaceErfinv(Plan& plan, const aclTensor* selfRef) {
  return PlanInplaceUnaryPointwise(plan, kRule, PointwiseOp::kErfinv, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_erfinv.h", .dtypes = kRule.self, .example = "f32[2,3] f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Erfinv, PlanErfinv, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceErfinv, PlanInplaceErfinv,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true, .example = "f32[2,3]"}),
                (const aclTensor*, selfRef))
