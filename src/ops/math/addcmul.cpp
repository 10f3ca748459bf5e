// aclnnAddcmul, aclnnInplaceAddcmul (torch.addcmul): out = self + value *
// tensor1 * tensor2, the three tensors promoted and broadcast. The promotion
// may not be INT16 or BOOL (INT8 with UINT8 is rejected); value takes no part
// in it and is converted to the promoted dtype (truncated on integers, which
// wrap). The result must cast to out.
#include "aclnnop/aclnn_addcmul.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAddcmulDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,
                                     ACL_INT32, ACL_INT64,   ACL_INT8,   ACL_UINT8};

aclnnStatus PlanAddcmulCommon(Plan& plan, const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                              const aclScalar* value, const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "selfRef" : "out";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kAddcmulDtypes));
  CANOPY_CHECK(plan.CheckDtype("tensor1", tensor1->dtype, kAddcmulDtypes));
  CANOPY_CHECK(plan.CheckDtype("tensor2", tensor2->dtype, kAddcmulDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("tensor1", tensor1->dtype, "tensor2", tensor2->dtype, promoted));
  CANOPY_CHECK(plan.CheckPromotable(self_name, self->dtype, "tensor1 * tensor2", promoted, promoted));
  if (promoted == ACL_INT16 || promoted == ACL_BOOL) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the operands promote to %s, which addcmul does not compute in",
                       DtypeName(promoted));
  }
  CANOPY_CHECK(plan.CheckCastable(promoted, out_name, out->dtype));
  Shape product, shape;
  CANOPY_CHECK(plan.CheckBroadcast("tensor1", tensor1->view_shape, "tensor2", tensor2->view_shape, product));
  if (in_place) {
    CANOPY_CHECK(CheckBroadcastInto(plan, self_name, self->view_shape, "tensor1 * tensor2", product));
  } else {
    CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, "tensor1 * tensor2", product, shape));
    CANOPY_CHECK(plan.CheckShape(out_name, out, shape));
  }

  const TensorRef s = plan.Input(self, self_name);
  const TensorRef t1 = plan.Input(tensor1, "tensor1");
  const TensorRef t2 = plan.Input(tensor2, "tensor2");
  const ScalarValue scale = RoundedTo(ValueOf(*value), promoted);
  AddPointwise(plan, PointwiseOp::kAddcmul, promoted, promoted,
               {PointwiseOperand::Tensor(s), PointwiseOperand::Tensor(t1), PointwiseOperand::Tensor(t2),
                PointwiseOperand::Scalar(scale)},
               plan.Output(out, out_name));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddcmul(Plan& plan, const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                        const aclScalar* value, const aclTensor* out) {
  return PlanAddcmulCommon(plan, self, tensor1, tensor2, value, out, false);
}
aclnnStatus PlanInplaceAddcmul(Plan& plan, const aclTensor* selfRef, const aclTensor* tensor1, const aclTensor* tensor2,
                               const aclScalar* value) {
  return PlanAddcmulCommon(plan, selfRef, tensor1, tensor2, value, selfRef, true);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_addcmul.h", .dtypes = kAddcmulDtypes};

}  // namespace

CANOPY_ACLNN_OP(Addcmul, PlanAddcmul, kTraits, (const aclTensor*, self), (const aclTensor*, tensor1),
                (const aclTensor*, tensor2), (const aclScalar*, value), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAddcmul, PlanInplaceAddcmul, InPlace(kTraits), (const aclTensor*, selfRef),
                (const aclTensor*, tensor1), (const aclTensor*, tensor2), (const aclScalar*, value))
