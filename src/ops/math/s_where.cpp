// aclnnSWhere (torch.where): out = condition ? self : other, the three
// broadcast together; self and other are taken in their promoted dtype and
// the choice is cast into out unchecked, as CANN casts. A UINT8 condition is
// true where non-zero. Complex values are chosen as pairs of reals.
#include "aclnnop/aclnn_s_where.h"
#include "binary_pointwise.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The A2 list of the host code.
constexpr DtypeSet kWhereDtypes = {ACL_FLOAT,   ACL_INT32,  ACL_UINT64,    ACL_INT64,      ACL_UINT32,
                                   ACL_FLOAT16, ACL_UINT16, ACL_INT16,     ACL_INT8,       ACL_UINT8,
                                   ACL_DOUBLE,  ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr DtypeSet kConditionDtypes = {ACL_BOOL, ACL_UINT8};

// A complex view as a view of its parts: a trailing dim of 2 (real, imaginary).
TensorRef AsParts(TensorRef t) {
  t.dtype = PartDtype(t.dtype);
  for (int64_t& stride : t.strides) stride *= 2;
  t.shape.push_back(2);
  t.strides.push_back(1);
  return t;
}

aclnnStatus PlanSWhere(Plan& plan, const aclTensor* condition, const aclTensor* self, const aclTensor* other,
                       const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kWhereDtypes));
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kWhereDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kWhereDtypes));
  CANOPY_CHECK(plan.CheckDtype("condition", condition->dtype, kConditionDtypes));
  Shape values, shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "other", other->view_shape, values));
  CANOPY_CHECK(plan.CheckBroadcast("condition", condition->view_shape, "self and other", values, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "other", other->dtype, promoted));

  const TensorRef c = plan.Input(condition, "condition");
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(other, "other");
  const TensorRef dst = plan.Output(out, "out");
  // CANN writes nothing when an operand is empty (out is then empty too, or left as it was).
  if (c.NumElements() == 0 || a.NumElements() == 0 || b.NumElements() == 0) return ACLNN_SUCCESS;
  // mask ? value : x with x = other, mask = condition, value = self.
  if (!IsComplex(promoted)) {
    AddPointwise(plan, PointwiseOp::kMaskedFill, promoted, promoted,
                 {PointwiseOperand::Tensor(b), PointwiseOperand::Tensor(c), PointwiseOperand::Tensor(a)}, dst);
    return ACLNN_SUCCESS;
  }
  // Complex values are chosen as pairs of real parts, the condition broadcast over each pair.
  const TensorRef chosen = dst.dtype == promoted ? dst : plan.Temporary(promoted, shape);
  auto parts = [&](const TensorRef& t) { return AsParts(t.dtype == promoted ? t : plan.Contiguous(t, promoted)); };
  AddPointwise(plan, PointwiseOp::kMaskedFill, PartDtype(promoted), PartDtype(promoted),
               {PointwiseOperand::Tensor(parts(b)), PointwiseOperand::Tensor(Unsqueeze(c, c.rank())),
                PointwiseOperand::Tensor(parts(a))},
               AsParts(chosen));
  if (chosen.dtype != dst.dtype || !SameView(chosen, dst)) plan.Copy(chosen, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(SWhere, PlanSWhere,
                (OpTraits{.header = "aclnnop/aclnn_s_where.h",
                          .dtypes = kWhereDtypes,
                          .example = "bool[2,3] f32[2,3] f32[2,3] f32[2,3]"}),
                (const aclTensor*, condition), (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
