// aclnnPrelu: self where it is above 0, else weight * self
// (torch.nn.functional.prelu), weight per channel (dim 1 of self; one value
// for all when it has one element or self has rank below 2). self and weight
// promote; the result must be castable to out, which has self's shape.
#include "aclnnop/aclnn_prelu.h"

#include "ops/framework/tensor_view.h"
#include "ops/math/binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kPreluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanPrelu(Plan& plan, const aclTensor* self, const aclTensor* weight, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kPreluDtypes));
  CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kPreluDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kPreluDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "weight", weight->dtype, promoted));
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const Shape& shape = self->view_shape;
  const int64_t channels = shape.size() < 2 ? 1 : shape[1];
  const int64_t count = weight->NumElements();
  if (count != 1 && count != channels) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'weight' has %lld elements; it needs 1 or self's %lld channels",
                       static_cast<long long>(count), static_cast<long long>(channels));
  }
  const TensorRef x = plan.Input(self, "self");
  const TensorRef w = plan.Input(weight, "weight");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  // The weight as a [1, C, 1, ...] view of self's rank (one value: a rank-0 view broadcast everywhere).
  const TensorRef flat = plan.Contiguous(w, w.dtype);
  TensorRef per_channel = *Reshape(flat, count == 1 ? Shape{} : Shape{count});
  if (count != 1) {
    per_channel = Unsqueeze(per_channel, 0);
    while (per_channel.rank() < static_cast<int64_t>(shape.size())) {
      per_channel = Unsqueeze(per_channel, per_channel.rank());
    }
  }
  AddPointwise(plan, PointwiseOp::kPrelu, promoted, promoted,
               {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(per_channel)}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    Prelu, PlanPrelu,
    (OpTraits{.header = "aclnnop/aclnn_prelu.h", .dtypes = kPreluDtypes, .example = "f32[2,3,4] f32[3] f32[2,3,4]"}),
    (const aclTensor*, self), (const aclTensor*, weight), (aclTensor*, out))
