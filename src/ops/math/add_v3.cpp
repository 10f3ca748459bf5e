// aclnnAddV3, aclnnInplaceAddV3: out = self + alpha * other with self a scalar
// and other a tensor (in place: other takes the result). CANN's host code
// runs them on Atlas A2 with the Add / Axpy / Mul kernels there (its document
// marks them Ascend 950 only). The dtype they compute in is CANN's: FLOAT for
// a floating other; for an integer other its own dtype, unless a floating or
// complex self promotes it (a DOUBLE self with a FLOAT out stays FLOAT).
// Alpha is taken in FLOAT where CANN runs Axpy (FLOAT, FLOAT16, INT32), else
// in the compute dtype; the result is rounded to that dtype, then cast to out.
#include "aclnnop/aclnn_add_v3.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAddV3Dtypes = {ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_BF16, ACL_INT8};

aclDataType ComputeDtype(aclDataType self, aclDataType other, aclDataType out) {
  if (IsComplex(other) || IsComplex(self)) return PromoteTypes(other, self);
  if (IsFloating(other)) return ACL_FLOAT;
  if (self == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
  if (IsFloating(self) || other == ACL_BOOL) return PromoteTypes(other, self);
  return other;
}

aclnnStatus PlanAddV3Common(Plan& plan, const aclScalar* self, const aclTensor* other, const aclScalar* alpha,
                            const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "other" : "out";
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kAddV3Dtypes));
  const aclDataType compute = ComputeDtype(self->dtype, other->dtype, out->dtype);
  if (compute == ACL_DT_UNDEFINED) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' of dtype %s and 'other' of dtype %s have no common dtype",
                       self_name, DtypeName(self->dtype), DtypeName(other->dtype));
  }
  if (!CanCast(alpha->dtype, compute)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'alpha' of dtype %s cannot be cast to the promoted dtype %s",
                       DtypeName(alpha->dtype), DtypeName(compute));
  }
  CANOPY_CHECK(plan.CheckCastable(compute, out_name, out->dtype));
  CANOPY_CHECK(plan.CheckShape(out_name, out, other->view_shape));

  const TensorRef b = plan.Input(other, "other");
  if (IsComplex(compute)) {  // a complex self: Add's complex arithmetic (the functor table has none for Addcmul)
    const TensorRef result = plan.Output(out, out_name);
    if (result.NumElements() == 0) return ACLNN_SUCCESS;
    const TensorRef a = plan.Temporary(compute, {});
    plan.Fill(a, ValueOf(*self));
    plan.Elementwise(ElementwiseOp::kAdd, kernels::ComputeTypeOf(compute), {a, b}, result, ValueOf(*alpha));
    return ACLNN_SUCCESS;
  }
  const bool axpy = compute == ACL_FLOAT || compute == ACL_FLOAT16 || compute == ACL_INT32;
  const ScalarValue scale = RoundedTo(ValueOf(*alpha), axpy && compute != ACL_INT32 ? ACL_FLOAT : compute);
  // self + alpha * other * 1: Addcmul's functor with one tensor operand.
  AddPointwise(plan, PointwiseOp::kAddcmul, compute, compute,
               {PointwiseOperand::Scalar(RoundedTo(ValueOf(*self), compute)), PointwiseOperand::Tensor(b),
                PointwiseOperand::Scalar(ScalarValue::Integer(1)), PointwiseOperand::Scalar(scale)},
               plan.Output(out, out_name));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddV3(Plan& plan, const aclScalar* self, const aclTensor* other, const aclScalar* alpha,
                      const aclTensor* out) {
  return PlanAddV3Common(plan, self, other, alpha, out, false);
}
aclnnStatus PlanInplaceAddV3(Plan& plan, const aclScalar* selfRef, const aclTensor* other, const aclScalar* alpha) {
  return PlanAddV3Common(plan, selfRef, other, alpha, other, true);
}

constexpr OpTraits kAddV3Traits{.header = "aclnnop/aclnn_add_v3.h", .dtypes = kAddV3Dtypes};

}  // namespace

CANOPY_ACLNN_OP(AddV3, PlanAddV3, WithExample(kAddV3Traits, "f32:1.2 f32[4,2] f32:1.2 f32[4,2]"),
                (const aclScalar*, self), (const aclTensor*, other), (const aclScalar*, alpha), (aclTensor*, out))
// Not marked in_place: the registry's in-place ops write their first argument, and
// InplaceAddV3's first argument is the scalar selfRef (it writes `other`).
CANOPY_ACLNN_OP(InplaceAddV3, PlanInplaceAddV3, WithExample(kAddV3Traits, "f32:1.2 f32[4,2] f32:1.2"),
                (const aclScalar*, selfRef), (const aclTensor*, other), (const aclScalar*, alpha))
