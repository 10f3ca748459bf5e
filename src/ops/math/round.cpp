// aclnnRound, aclnnInplaceRound: out = round(self), halves to even (torch.round); integers unchanged; out has self's
// dtype. aclnnRoundDecimals and its in-place form round at `decimals` decimal digits, halves to even (negative
// decimals round integers too, to a multiple of 10^-decimals). Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_round.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kRound,
    .self = DtypeSet{ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64},
    .out = DtypeSet{ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64},
    .inplace = DtypeSet{ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64},
    .policy = UnaryPolicy::kSameAsInput,
    .out_same_dtype = true,
};

aclnnStatus PlanRound(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceRound(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

aclnnStatus PlanRoundDecimals(Plan& plan, const aclTensor* self, int64_t decimals, const aclTensor* out) {
  return PlanUnaryPointwise(plan, kRule, PointwiseOp::kRoundDecimals, self, out,
                            {PointwiseOperand::Scalar(ScalarValue::Integer(decimals))});
}
aclnnStatus PlanInplaceRoundDecimals(Plan& plan, const aclTensor* selfRef, int64_t decimals) {
  return PlanInplaceUnaryPointwise(plan, kRule, PointwiseOp::kRoundDecimals, selfRef,
                                   {PointwiseOperand::Scalar(ScalarValue::Integer(decimals))});
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_round.h", .dtypes = kRule.self, .example = "f32[2,3] f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Round, PlanRound, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRound, PlanInplaceRound,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true, .example = "f32[2,3]"}),
                (const aclTensor*, selfRef))
CANOPY_ACLNN_OP(RoundDecimals, PlanRoundDecimals, WithExample(kTraits, "f32[2,3] 2 f32[2,3]"), (const aclTensor*, self),
                (int64_t, decimals), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRoundDecimals, PlanInplaceRoundDecimals, InPlace(kTraits, "f32[2,3] 2"), (aclTensor*, selfRef),
                (int64_t, decimals))
