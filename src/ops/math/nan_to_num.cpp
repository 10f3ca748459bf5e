// aclnnNanToNum, aclnnInplaceNanToNum: NaN, +inf and -inf replaced by nan,
// posinf and neginf (torch.nan_to_num with those values; CANN's prototype has
// no defaults, the values are used as given), each rounded to self's dtype
// (FLT_MAX becomes inf in FLOAT16, as on the device); integers and bool pass
// through. out has self's dtype and shape.
#include "aclnnop/aclnn_nan_to_num.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNanToNumDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16,  ACL_INT8, ACL_INT16,
                                      ACL_INT32,   ACL_INT64, ACL_UINT8, ACL_BOOL};
constexpr UnaryRule kRule{
    .self = kNanToNumDtypes, .out = kNanToNumDtypes, .inplace = kNanToNumDtypes, .out_same_dtype = true};

std::vector<PointwiseOperand> Replacements(aclDataType dtype, float nan, float posinf, float neginf) {
  return {PointwiseOperand::Scalar(RoundedTo(ScalarValue::Real(nan), dtype)),
          PointwiseOperand::Scalar(RoundedTo(ScalarValue::Real(posinf), dtype)),
          PointwiseOperand::Scalar(RoundedTo(ScalarValue::Real(neginf), dtype))};
}

aclnnStatus PlanNanToNum(Plan& plan, const aclTensor* self, float nan, float posinf, float neginf,
                         const aclTensor* out) {
  // CANN checks out's dtype before self's list.
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must have self's dtype %s",
                       DtypeName(out->dtype), DtypeName(self->dtype));
  }
  return PlanUnaryPointwise(plan, kRule, PointwiseOp::kNanToNum, self, out,
                            Replacements(self->dtype, nan, posinf, neginf));
}
aclnnStatus PlanInplaceNanToNum(Plan& plan, const aclTensor* selfRef, float nan, float posinf, float neginf) {
  return PlanInplaceUnaryPointwise(plan, kRule, PointwiseOp::kNanToNum, selfRef,
                                   Replacements(selfRef->dtype, nan, posinf, neginf));
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_nan_to_num.h", .dtypes = kNanToNumDtypes};

}  // namespace

CANOPY_ACLNN_OP(NanToNum, PlanNanToNum, WithExample(kTraits, "f32[2,3] 0 100 -100 f32[2,3]"), (const aclTensor*, self),
                (float, nan), (float, posinf), (float, neginf), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceNanToNum, PlanInplaceNanToNum, InPlace(kTraits, "f32[2,3] 0 100 -100"), (aclTensor*, selfRef),
                (float, nan), (float, posinf), (float, neginf))
