// aclnnAddRelu, aclnnInplaceAddRelu: relu(self + alpha * other). self and
// other promote and broadcast, alpha must cast to the promoted dtype and the
// result to out (or selfRef). An integer sum wraps in the promoted dtype before
// the relu, as CANN adds there first (an unsigned sum skips the relu).
#include "aclnnop/aclnn_add_relu.h"

#include "ops/math/binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAddReluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_INT8,
                                     ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64};

aclnnStatus PlanAddReluCommon(Plan& plan, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                              const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "selfRef" : "out";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kAddReluDtypes));
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kAddReluDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable(self_name, self->dtype, "other", other->dtype, promoted));
  if (!CanCast(alpha->dtype, promoted)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'alpha' of dtype %s cannot be cast to the promoted dtype %s",
                       DtypeName(alpha->dtype), DtypeName(promoted));
  }
  CANOPY_CHECK(plan.CheckCastable(promoted, out_name, out->dtype));
  if (in_place) {
    CANOPY_CHECK(CheckBroadcastInto(plan, self_name, self->view_shape, "other", other->view_shape));
  } else {
    Shape shape;
    CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, "other", other->view_shape, shape));
    CANOPY_CHECK(plan.CheckShape(out_name, out, shape));
  }
  const TensorRef a = plan.Input(self, self_name);
  const TensorRef b = plan.Input(other, "other");
  const int64_t bits = static_cast<int64_t>(DtypeSize(promoted)) * 8;
  const int64_t width = IsIntegral(promoted) ? (CategoryOf(promoted) == DtypeCategory::kUnsigned ? -bits : bits) : 0;
  AddPointwise(plan, PointwiseOp::kAddRelu, promoted, promoted,
               {PointwiseOperand::Tensor(a), PointwiseOperand::Tensor(b),
                PointwiseOperand::Scalar(RoundedTo(ValueOf(*alpha), promoted)),
                PointwiseOperand::Scalar(ScalarValue::Integer(width))},
               plan.Output(out, out_name));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddRelu(Plan& plan, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                        const aclTensor* out) {
  return PlanAddReluCommon(plan, self, other, alpha, out, false);
}
aclnnStatus PlanInplaceAddRelu(Plan& plan, const aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha) {
  return PlanAddReluCommon(plan, selfRef, other, alpha, selfRef, true);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_add_relu.h", .dtypes = kAddReluDtypes};

}  // namespace

CANOPY_ACLNN_OP(AddRelu, PlanAddRelu, WithExample(kTraits, "f32[2,3] f32[2,3] f32:1.5 f32[2,3]"),
                (const aclTensor*, self), (const aclTensor*, other), (aclScalar*, alpha), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAddRelu, PlanInplaceAddRelu, InPlace(kTraits, "f32[2,3] f32[2,3] f32:1.5"),
                (aclTensor*, selfRef), (const aclTensor*, other), (aclScalar*, alpha))
