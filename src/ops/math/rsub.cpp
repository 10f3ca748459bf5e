// aclnnRsub, aclnnRsubs: out = other - alpha * self (torch.rsub). Rsub
// promotes and broadcasts its tensors; Rsubs keeps a floating self's dtype and
// otherwise promotes with a floating scalar (an integer tensor with an integer
// scalar keeps the tensor's dtype), as CANN's Atlas A2 path does. alpha must
// cast to the promoted dtype (a FLOAT alpha with integers is rejected) and the
// result to out. Integers wrap.
#include "aclnnop/aclnn_rsub.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRsubDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT64,     ACL_INT32,      ACL_INT8, ACL_UINT8,
                                  ACL_INT16, ACL_DOUBLE,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus CheckAlphaAndOut(Plan& plan, const aclScalar* alpha, aclDataType promoted, const aclTensor* out) {
  if (!CanCast(alpha->dtype, promoted)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'alpha' of dtype %s cannot be cast to the promoted dtype %s",
                       DtypeName(alpha->dtype), DtypeName(promoted));
  }
  return plan.CheckCastable(promoted, "out", out->dtype);
}

aclnnStatus PlanRsub(Plan& plan, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                     const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kRsubDtypes));
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kRsubDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "other", other->dtype, promoted));
  CANOPY_CHECK(CheckAlphaAndOut(plan, alpha, promoted, out));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "other", other->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(other, "other");
  AddPointwise(plan, PointwiseOp::kRsub, promoted, promoted,
               {PointwiseOperand::Tensor(a), PointwiseOperand::Tensor(b),
                PointwiseOperand::Scalar(RoundedTo(ValueOf(*alpha), promoted))},
               plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRsubs(Plan& plan, const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                      const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kRsubDtypes));
  CANOPY_CHECK(CheckScalarDtype(plan, "other", other, kRsubDtypes));
  const aclDataType promoted =
      !IsFloating(self->dtype) && IsFloating(other->dtype) ? PromoteTypes(self->dtype, other->dtype) : self->dtype;
  CANOPY_CHECK(CheckAlphaAndOut(plan, alpha, promoted, out));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const TensorRef a = plan.Input(self, "self");
  AddPointwise(plan, PointwiseOp::kRsub, promoted, promoted,
               {PointwiseOperand::Tensor(a), PointwiseOperand::Scalar(RoundedTo(ValueOf(*other), promoted)),
                PointwiseOperand::Scalar(RoundedTo(ValueOf(*alpha), promoted))},
               plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_rsub.h", .dtypes = kRsubDtypes};

}  // namespace

CANOPY_ACLNN_OP(Rsub, PlanRsub, WithExample(kTraits, "f32[2,3] f32[2,3] f32:1.5 f32[2,3]"), (const aclTensor*, self),
                (const aclTensor*, other), (const aclScalar*, alpha), (aclTensor*, out))
CANOPY_ACLNN_OP(Rsubs, PlanRsubs, WithExample(kTraits, "f32[2,3] f32:2 f32:1.5 f32[2,3]"), (const aclTensor*, self),
                (const aclScalar*, other), (const aclScalar*, alpha), (aclTensor*, out))
