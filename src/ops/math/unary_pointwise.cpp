#include "unary_pointwise.h"

namespace canopy::ops {
namespace {

aclDataType ResultDtype(const UnaryRule& rule, aclDataType self) {
  if (rule.policy == UnaryPolicy::kPromoteIntegers && !IsFloating(self) && !IsComplex(self)) return ACL_FLOAT;
  if (rule.policy == UnaryPolicy::kRealOfComplex && IsComplex(self)) {
    return self == ACL_COMPLEX128 ? ACL_DOUBLE : ACL_FLOAT;
  }
  return self;
}

bool IsHalfWidth(aclDataType dtype) { return dtype == ACL_FLOAT16 || dtype == ACL_BF16; }

}  // namespace

aclnnStatus PlanUnary(Plan& plan, const UnaryRule& rule, const aclTensor* self, const aclTensor* out,
                      UnaryParams params) {
  CANOPY_CHECK(plan.CheckDtype(rule.self_name, self->dtype, rule.self));
  const aclDataType result = ResultDtype(rule, self->dtype);
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, rule.out));
  if (rule.out_same_dtype && out->dtype != result) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has dtype %s; for %s of dtype %s it must be %s",
                       DtypeName(out->dtype), rule.self_name, DtypeName(self->dtype), DtypeName(result));
  }
  CANOPY_CHECK(plan.CheckCastable(result, "out", out->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));

  const TensorRef in = plan.Input(self, rule.self_name);
  const TensorRef dst = plan.Output(out, "out");
  // A complex self computes in its complex type even where the result is real.
  const ComputeType compute = kernels::ComputeTypeOf(IsComplex(self->dtype) ? self->dtype : result);
  if (IsHalfWidth(result) && out->dtype != result) {
    // CANN rounds the result to self's 16-bit dtype before casting it to out: keep that rounding.
    const TensorRef rounded = plan.Temporary(result, in.shape);
    plan.Unary(rule.op, compute, in, rounded, params);
    plan.Copy(rounded, dst);
  } else {
    plan.Unary(rule.op, compute, in, dst, params);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanInplaceUnary(Plan& plan, const UnaryRule& rule, const aclTensor* selfRef, UnaryParams params) {
  CANOPY_CHECK(plan.CheckDtype(rule.inplace_name, selfRef->dtype, rule.inplace));
  const TensorRef in = plan.Input(selfRef, rule.inplace_name);
  const TensorRef dst = plan.Output(selfRef, rule.inplace_name);
  plan.Unary(rule.op, kernels::ComputeTypeOf(ResultDtype(rule, selfRef->dtype)), in, dst, params);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
