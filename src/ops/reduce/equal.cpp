// aclnnEqual (torch.equal): out[0] is true when self and other have the same
// shape and every element is equal in their promoted dtype (NaN is unequal,
// +0 equals -0); any shapes may be passed, and differing shapes give false.
// out is BOOL of shape [1].
#include "aclnnop/aclnn_equal.h"
#include "ops/math/binary_pointwise.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kEqualDtypes = {ACL_FLOAT, ACL_INT32,  ACL_INT64,  ACL_FLOAT16, ACL_INT16,  ACL_INT8, ACL_UINT8,
                                   ACL_BOOL,  ACL_DOUBLE, ACL_UINT16, ACL_UINT32,  ACL_UINT64, ACL_BF16};

aclnnStatus PlanEqual(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "other", other->dtype, promoted));
  CANOPY_CHECK(plan.CheckDtype("the promoted dtype", promoted, kEqualDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_BOOL}));
  CANOPY_CHECK(plan.CheckShape("out", out, Shape{1}));
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(other, "other");
  const TensorRef dst = plan.Output(out, "out");
  if (self->view_shape != other->view_shape) {
    plan.Fill(dst, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }
  // Each pair compared in the promoted dtype, then all of them.
  const TensorRef equal = plan.Temporary(ACL_BOOL, a.shape);
  AddPointwise(plan, PointwiseOp::kEq, promoted, ACL_BOOL, {PointwiseOperand::Tensor(a), PointwiseOperand::Tensor(b)},
               equal);
  PlanReduceInto(plan, kernels::ReduceKind::kAll, equal, std::vector<bool>(a.shape.size(), true), false, ACL_BOOL, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Equal, PlanEqual,
                (OpTraits{
                    .header = "aclnnop/aclnn_equal.h", .dtypes = kEqualDtypes, .example = "f32[2,3] f32[2,3] bool[1]"}),
                (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
