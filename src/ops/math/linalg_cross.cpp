// aclnnLinalgCross (torch.linalg.cross): out = self x other along dim, the
// two broadcast to out's shape. Each component a[i] * b[j] - a[j] * b[i] is
// formed in a wider dtype (DOUBLE for the floats, COMPLEX128 for the complex
// dtypes, INT64 wrapping for the integers) and rounded once into out.
#include "aclnnop/aclnn_linalg_cross.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The A2 list of the host code.
constexpr DtypeSet kCrossDtypes = {ACL_FLOAT, ACL_FLOAT16,   ACL_DOUBLE,     ACL_INT8,  ACL_INT16, ACL_INT32,
                                   ACL_INT64, ACL_COMPLEX64, ACL_COMPLEX128, ACL_UINT8, ACL_BF16};
constexpr int64_t kVectorLength = 3;

aclDataType WideDtype(aclDataType dtype) {
  if (IsComplex(dtype)) return ACL_COMPLEX128;
  return IsFloating(dtype) ? ACL_DOUBLE : ACL_INT64;
}

aclnnStatus PlanCross(Plan& plan, const aclTensor* self, const aclTensor* other, int64_t dim, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kCrossDtypes));
  for (auto [t, name] : {std::pair{other, "other"}, std::pair{out, "out"}}) {
    if (t->dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' is %s; it must have self's dtype %s", name, DtypeName(t->dtype),
                         DtypeName(self->dtype));
    }
  }
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "other", other->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const auto self_rank = static_cast<int64_t>(self->view_shape.size());
  if (dim >= self_rank || dim < -self_rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dim %ld is outside [%ld, %ld]", static_cast<long>(dim),
                       static_cast<long>(-self_rank), static_cast<long>(self_rank - 1));
  }
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(other, "other");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  // dim counts in self's dims; after broadcasting, in out's (CANN's shift where self has fewer dims).
  const auto rank = static_cast<int64_t>(shape.size());
  int64_t axis = dim;
  if (self->view_shape != other->view_shape && axis >= 0) axis += rank - self_rank;
  if (axis < 0) axis += self->view_shape != other->view_shape ? rank : self_rank;
  if (shape[static_cast<size_t>(axis)] != kVectorLength) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dimension %ld does not have size 3", static_cast<long>(axis));
  }
  const TensorRef x = *Expand(a, shape);
  const TensorRef y = *Expand(b, shape);
  const aclDataType wide = WideDtype(self->dtype);
  const ComputeType compute = kernels::ComputeTypeOf(wide);
  const Shape part_shape = Select(x, axis, 0).shape;
  const TensorRef left = plan.Temporary(wide, part_shape);
  const TensorRef right = plan.Temporary(wide, part_shape);
  for (int64_t k = 0; k < kVectorLength; ++k) {
    const int64_t i = (k + 1) % kVectorLength, j = (k + 2) % kVectorLength;
    plan.Elementwise(ElementwiseOp::kMul, compute, {Select(x, axis, i), Select(y, axis, j)}, left,
                     ScalarValue::Integer(1));
    plan.Elementwise(ElementwiseOp::kMul, compute, {Select(x, axis, j), Select(y, axis, i)}, right,
                     ScalarValue::Integer(1));
    plan.Elementwise(ElementwiseOp::kSub, compute, {left, right}, Select(dst, axis, k), ScalarValue::Integer(1));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(LinalgCross, PlanCross,
                (OpTraits{.header = "aclnnop/aclnn_linalg_cross.h",
                          .dtypes = kCrossDtypes,
                          .example = "f32[2,3] f32[2,3] 1 f32[2,3]"}),
                (const aclTensor*, self), (const aclTensor*, other), (int64_t, dim), (aclTensor*, out))
