#include "unary_pointwise.h"

namespace canopy::ops {
namespace {

aclDataType ResultDtype(const UnaryRule& rule, aclDataType self) {
  if (rule.policy == UnaryPolicy::kPromoteIntegers && !IsFloating(self) && !IsComplex(self)) return ACL_FLOAT;
  return self;
}

bool IsHalfWidth(aclDataType dtype) { return dtype == ACL_FLOAT16 || dtype == ACL_BF16; }

}  // namespace

aclnnStatus PlanUnary(Plan& plan, const UnaryRule& rule, const aclTensor* self, const aclTensor* out,
                      UnaryParams params) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, rule.self));
  const aclDataType result = ResultDtype(rule, self->dtype);
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, rule.out));
  CANOPY_CHECK(plan.CheckCastable(result, "out", out->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));

  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  const ComputeType compute = kernels::ComputeTypeOf(result);
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
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, rule.inplace));
  const TensorRef in = plan.Input(selfRef, "selfRef");
  const TensorRef dst = plan.Output(selfRef, "selfRef");
  plan.Unary(rule.op, kernels::ComputeTypeOf(ResultDtype(rule, selfRef->dtype)), in, dst, params);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
