// aclnnInplaceMaskedFillScalar (torch.Tensor.masked_fill_): selfRef takes
// `value` (of any dtype, converted to selfRef's as a cast: 8.9 into INT32 is
// 8) where the bool mask, broadcast to selfRef's shape, is true.
#include "aclnnop/aclnn_masked_fill_scalar.h"

#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFillDtypes = {ACL_BOOL, ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanInplaceMaskedFillScalar(Plan& plan, const aclTensor* selfRef, const aclTensor* mask,
                                        const aclScalar* value) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, kFillDtypes));
  CANOPY_CHECK(plan.CheckDtype("mask", mask->dtype, {ACL_BOOL}));
  CANOPY_CHECK(CheckBroadcastInto(plan, "selfRef", selfRef->view_shape, "mask", mask->view_shape));
  // CANN's host code takes value of any dtype and converts it to selfRef's (its unit tests fill INT32, INT8
  // and BOOL tensors from FLOAT and integer scalars): no promotion or cast check.
  const TensorRef self = plan.Input(selfRef, "selfRef");
  const TensorRef m = plan.Input(mask, "mask");
  AddPointwise(plan, PointwiseOp::kMaskedFill, selfRef->dtype, selfRef->dtype,
               {PointwiseOperand::Tensor(self), PointwiseOperand::Tensor(m),
                PointwiseOperand::Scalar(RoundedTo(ValueOf(*value), selfRef->dtype))},
               plan.Output(selfRef, "selfRef"));
  return ACLNN_SUCCESS;
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_masked_fill_scalar.h", .dtypes = kFillDtypes, .in_place = true};

}  // namespace

CANOPY_ACLNN_OP(InplaceMaskedFillScalar, PlanInplaceMaskedFillScalar, kTraits, (aclTensor*, selfRef),
                (const aclTensor*, mask), (const aclScalar*, value))
