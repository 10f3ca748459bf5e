#include "unary_pointwise.h"

#include "kernels/dtype_dispatch.h"

namespace canopy::ops {
namespace {

aclDataType ResultDtype(const UnaryRule& rule, aclDataType self) {
  if (rule.policy == UnaryPolicy::kPromoteIntegers && !IsFloating(self) && !IsComplex(self)) return ACL_FLOAT;
  if (rule.policy == UnaryPolicy::kRealOfComplex && IsComplex(self)) {
    return self == ACL_COMPLEX128 ? ACL_DOUBLE : ACL_FLOAT;
  }
  if (rule.policy == UnaryPolicy::kBoolOut) return ACL_BOOL;
  return self;
}

// A complex self computes in its complex type even where the result is real,
// and a predicate tests self's values in self's own type (0.5 is not 0).
ComputeType ComputeFor(const UnaryRule& rule, aclDataType self, aclDataType result) {
  if (IsComplex(self) || rule.policy == UnaryPolicy::kBoolOut) return kernels::ComputeTypeOf(self);
  return kernels::ComputeTypeOf(result);
}

aclnnStatus CheckScalars(Plan& plan, aclDataType self, std::initializer_list<UnaryScalar> scalars) {
  for (const UnaryScalar& s : scalars) {
    const aclDataType dtype = s.scalar->dtype;
    if (CategoryOf(dtype) == DtypeCategory::kInvalid) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalar '%s' has unsupported dtype %s", s.name, DtypeName(dtype));
    }
    switch (s.rule) {
      case ScalarRule::kCastsToSelf:
        if (!CanCast(dtype, self)) {
          return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalar '%s' of dtype %s cannot be cast to self's dtype %s",
                             s.name, DtypeName(dtype), DtypeName(self));
        }
        break;
      case ScalarRule::kCastsToFloat:
        if (!CanCast(dtype, ACL_FLOAT)) {
          return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalar '%s' of dtype %s cannot be cast to FLOAT", s.name,
                             DtypeName(dtype));
        }
        break;
      case ScalarRule::kPromotesWithSelf: {
        aclDataType promoted = ACL_DT_UNDEFINED;
        CANOPY_CHECK(plan.CheckPromotable("self", self, s.name, dtype, promoted));
        break;
      }
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace

ScalarValue ScalarIn(const aclScalar& scalar, aclDataType dtype) { return RoundedTo(ValueOf(scalar), dtype); }

namespace {

// The out form's checks in CANN's order; `result` receives the result dtype.
aclnnStatus CheckUnary(Plan& plan, const UnaryRule& rule, const aclTensor* self, const aclTensor* out,
                       std::initializer_list<UnaryScalar> scalars, aclDataType& result) {
  CANOPY_CHECK(plan.CheckDtype(rule.self_name, self->dtype, rule.self));
  CANOPY_CHECK(CheckScalars(plan, self->dtype, scalars));
  result = ResultDtype(rule, self->dtype);
  CANOPY_CHECK(plan.CheckDtype(rule.out_name, out->dtype, rule.out));
  if (rule.out_same_dtype && out->dtype != result) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has dtype %s; for %s of dtype %s it must be %s",
                       rule.out_name, DtypeName(out->dtype), rule.self_name, DtypeName(self->dtype), DtypeName(result));
  }
  CANOPY_CHECK(plan.CheckCastable(result, rule.out_name, out->dtype));
  return plan.CheckShape(rule.out_name, out, self->view_shape);
}

// The dtype a pointwise-engine functor computes in: a predicate tests self's own values.
aclDataType PointwiseComputeDtype(const UnaryRule& rule, aclDataType self, aclDataType result) {
  return rule.policy == UnaryPolicy::kBoolOut ? self : result;
}

}  // namespace

aclnnStatus PlanUnaryPointwise(Plan& plan, const UnaryRule& rule, PointwiseOp op, const aclTensor* self,
                               const aclTensor* out, const std::vector<PointwiseOperand>& extra) {
  aclDataType result;
  CANOPY_CHECK(CheckUnary(plan, rule, self, out, {}, result));
  std::vector<PointwiseOperand> operands = {PointwiseOperand::Tensor(plan.Input(self, rule.self_name))};
  operands.insert(operands.end(), extra.begin(), extra.end());
  AddPointwise(plan, op, PointwiseComputeDtype(rule, self->dtype, result), result, operands,
               plan.Output(out, rule.out_name));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanInplaceUnaryPointwise(Plan& plan, const UnaryRule& rule, PointwiseOp op, const aclTensor* selfRef,
                                      const std::vector<PointwiseOperand>& extra) {
  CANOPY_CHECK(plan.CheckDtype(rule.inplace_name, selfRef->dtype, rule.inplace));
  const aclDataType result = ResultDtype(rule, selfRef->dtype);
  std::vector<PointwiseOperand> operands = {PointwiseOperand::Tensor(plan.Input(selfRef, rule.inplace_name))};
  operands.insert(operands.end(), extra.begin(), extra.end());
  AddPointwise(plan, op, PointwiseComputeDtype(rule, selfRef->dtype, result), result, operands,
               plan.Output(selfRef, rule.inplace_name));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanUnary(Plan& plan, const UnaryRule& rule, const aclTensor* self, const aclTensor* out,
                      UnaryParams params, std::initializer_list<UnaryScalar> scalars) {
  aclDataType result;
  CANOPY_CHECK(CheckUnary(plan, rule, self, out, scalars, result));

  const TensorRef in = plan.Input(self, rule.self_name);
  const TensorRef dst = plan.Output(out, rule.out_name);
  const ComputeType compute = ComputeFor(rule, self->dtype, result);
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

aclnnStatus PlanInplaceUnary(Plan& plan, const UnaryRule& rule, const aclTensor* selfRef, UnaryParams params,
                             std::initializer_list<UnaryScalar> scalars) {
  CANOPY_CHECK(plan.CheckDtype(rule.inplace_name, selfRef->dtype, rule.inplace));
  CANOPY_CHECK(CheckScalars(plan, selfRef->dtype, scalars));
  const TensorRef in = plan.Input(selfRef, rule.inplace_name);
  const TensorRef dst = plan.Output(selfRef, rule.inplace_name);
  plan.Unary(rule.op, ComputeFor(rule, selfRef->dtype, ResultDtype(rule, selfRef->dtype)), in, dst, params);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
