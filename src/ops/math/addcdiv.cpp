// aclnnAddcdiv, aclnnInplaceAddcdiv (torch.addcdiv): out = self + value *
// tensor1 / tensor2, the three tensors promoted and broadcast. INT64 divides
// truly (in f64) and truncates into the result, as CANN's reference does.
#include "aclnnop/aclnn_addcdiv.h"

#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAddcdivDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT64};

aclnnStatus PlanAddcdivCommon(Plan& plan, const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                              const aclScalar* value, const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "selfRef" : "out";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kAddcdivDtypes));
  CANOPY_CHECK(plan.CheckDtype("tensor1", tensor1->dtype, kAddcdivDtypes));
  CANOPY_CHECK(plan.CheckDtype("tensor2", tensor2->dtype, kAddcdivDtypes));
  if (!in_place) CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kAddcdivDtypes));
  CANOPY_CHECK(CheckScalarDtype(plan, "value", value, kAddcdivDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("tensor1", tensor1->dtype, "tensor2", tensor2->dtype, promoted));
  CANOPY_CHECK(plan.CheckPromotable(self_name, self->dtype, "tensor1 / tensor2", promoted, promoted));
  CANOPY_CHECK(plan.CheckDtype("the promoted dtype", promoted, kAddcdivDtypes));
  CANOPY_CHECK(plan.CheckCastable(promoted, out_name, out->dtype));
  if (!CanCast(value->dtype, promoted)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'value' of dtype %s cannot be cast to the promoted dtype %s",
                       DtypeName(value->dtype), DtypeName(promoted));
  }
  Shape quotient, shape;
  CANOPY_CHECK(plan.CheckBroadcast("tensor1", tensor1->view_shape, "tensor2", tensor2->view_shape, quotient));
  if (in_place) {
    CANOPY_CHECK(CheckBroadcastInto(plan, self_name, self->view_shape, "tensor1 / tensor2", quotient));
  } else {
    CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, "tensor1 / tensor2", quotient, shape));
    CANOPY_CHECK(plan.CheckShape(out_name, out, shape));
  }

  const TensorRef s = plan.Input(self, self_name);
  const TensorRef t1 = plan.Input(tensor1, "tensor1");
  const TensorRef t2 = plan.Input(tensor2, "tensor2");
  const aclDataType compute = IsIntegral(promoted) ? ACL_DOUBLE : promoted;
  AddPointwise(plan, PointwiseOp::kAddcdiv, compute, promoted,
               {PointwiseOperand::Tensor(s), PointwiseOperand::Tensor(t1), PointwiseOperand::Tensor(t2),
                PointwiseOperand::Scalar(RoundedTo(ValueOf(*value), promoted))},
               plan.Output(out, out_name));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddcdiv(Plan& plan, const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                        const aclScalar* value, const aclTensor* out) {
  return PlanAddcdivCommon(plan, self, tensor1, tensor2, value, out, false);
}
aclnnStatus PlanInplaceAddcdiv(Plan& plan, const aclTensor* selfRef, const aclTensor* tensor1, const aclTensor* tensor2,
                               const aclScalar* value) {
  return PlanAddcdivCommon(plan, selfRef, tensor1, tensor2, value, selfRef, true);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_addcdiv.h", .dtypes = kAddcdivDtypes};

}  // namespace

CANOPY_ACLNN_OP(Addcdiv, PlanAddcdiv, kTraits, (const aclTensor*, self), (const aclTensor*, tensor1),
                (const aclTensor*, tensor2), (const aclScalar*, value), (const aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAddcdiv, PlanInplaceAddcdiv, InPlace(kTraits), (const aclTensor*, selfRef),
                (const aclTensor*, tensor1), (const aclTensor*, tensor2), (const aclScalar*, value))
