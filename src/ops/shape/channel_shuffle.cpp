// aclnnChannelShuffle (torch.nn.functional.channel_shuffle): with C channels
// (dimension 1) in `groups` groups of C / groups, out channel k * groups + j
// is self channel j * (C / groups) + k. One strided copy: self viewed as
// [N, groups, C / groups, ...] into out viewed as [N, C / groups, groups, ...]
// with its two channel dimensions swapped.
#include "aclnnop/aclnn_channel_shuffle.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"
#include "view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN's code (its document leaves BF16 out of self's list, not out's).
constexpr DtypeSet kChannelShuffleDtypes = {ACL_FLOAT16, ACL_FLOAT,     ACL_DOUBLE,     ACL_INT8,
                                            ACL_UINT8,   ACL_INT16,     ACL_INT32,      ACL_INT64,
                                            ACL_BOOL,    ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

// `t` with dimension 1 split into [outer, C / outer].
Shape SplitChannels(const Shape& shape, int64_t outer) {
  Shape split = shape;
  split[1] = shape[1] / outer;
  split.insert(split.begin() + 1, outer);
  return split;
}

aclnnStatus PlanChannelShuffle(Plan& plan, const aclTensor* self, int64_t groups, const aclTensor* out) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kChannelShuffleDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 7));
  if (groups <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groups' (%lld) must be positive",
                       static_cast<long long>(groups));
  }
  const int64_t channels = self->view_shape[1];
  if (channels % groups != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has %lld channels (dimension 1), not a multiple of groups %lld",
                       static_cast<long long>(channels), static_cast<long long>(groups));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  const int64_t per_group = channels / groups;
  const TensorRef from = ViewOrCopy(plan, src, SplitChannels(src.shape, groups));
  // out channel k * groups + j: out viewed as [N, per_group, groups, ...], j and k swapped.
  std::optional<TensorRef> to = Reshape(dst, SplitChannels(dst.shape, per_group));
  if (to) {
    plan.Copy(from, Transpose(*to, 1, 2));
  } else {  // an out whose strides cannot split: through a contiguous temporary
    const TensorRef staged = plan.Temporary(dst.dtype, dst.shape);
    plan.Copy(from, Transpose(*Reshape(staged, SplitChannels(dst.shape, per_group)), 1, 2));
    plan.Copy(staged, dst);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ChannelShuffle, PlanChannelShuffle,
                (OpTraits{.header = "aclnnop/aclnn_channel_shuffle.h",
                          .dtypes = kChannelShuffleDtypes,
                          .example = "f32[1,4,2,2] 2 f32[1,4,2,2]"}),
                (const aclTensor*, self), (int64_t, groups), (aclTensor*, out))
