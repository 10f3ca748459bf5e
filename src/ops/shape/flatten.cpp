// aclnnFlatten (ONNX Flatten): self's elements in row-major order as the 2-D
// out of shape [prod(shape[:axis]), prod(shape[axis:])]; axis 0 gives [1, numel].
#include "aclnnop/aclnn_flatten.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFlattenDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32,  ACL_INT8,   ACL_UINT8, ACL_INT64,
                                     ACL_INT16, ACL_UINT16,  ACL_UINT32, ACL_UINT64, ACL_BOOL,  ACL_BF16};

aclnnStatus PlanFlatten(Plan& plan, const aclTensor* self, int64_t axis, const aclTensor* out) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kFlattenDtypes));
  // CANN's rule: a negative axis counts from max(rank, 1); the result lies in [0, rank - 1] (0 for rank <= 1).
  const int64_t rank = self->rank();
  const int64_t wrapped = axis < 0 ? axis + std::max<int64_t>(rank, 1) : axis;
  if (wrapped < 0 || wrapped > std::max<int64_t>(rank - 1, 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'axis' (%lld) is out of range [%lld, %lld] for self %s",
                       static_cast<long long>(axis), static_cast<long long>(-std::max<int64_t>(rank, 1)),
                       static_cast<long long>(std::max<int64_t>(rank - 1, 0)), ShapeToString(self->view_shape).c_str());
  }
  Shape shape = {1, 1};
  for (int64_t d = 0; d < rank; ++d) shape[d < wrapped ? 0 : 1] *= self->view_shape[static_cast<size_t>(d)];
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  // One strided copy: out viewed with self's shape where its strides allow, else self made contiguous.
  if (const std::optional<TensorRef> target = Reshape(dst, src.shape)) {
    plan.Copy(src, *target);
  } else {
    plan.Copy(*Reshape(plan.Contiguous(src, src.dtype), shape), dst);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Flatten, PlanFlatten,
                (OpTraits{
                    .header = "aclnnop/aclnn_flatten.h", .dtypes = kFlattenDtypes, .example = "f32[4,2] 0 f32[1,8]"}),
                (const aclTensor*, self), (int64_t, axis), (aclTensor*, out))
