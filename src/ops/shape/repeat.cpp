// aclnnRepeat: out = self tiled repeats[i] times along each dimension (self
// gains leading dimensions of extent 1 when repeats is longer), PyTorch's
// Tensor.repeat. One strided copy: out viewed with each dimension split into
// (repeat, extent) against self with a stride-0 repeat dimension before each.
#include <limits>

#include "aclnnop/aclnn_repeat.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRepeatDtypes = {ACL_FLOAT,  ACL_DOUBLE, ACL_FLOAT16, ACL_COMPLEX64, ACL_COMPLEX128,
                                    ACL_UINT8,  ACL_INT8,   ACL_INT16,   ACL_INT32,     ACL_INT64,
                                    ACL_UINT16, ACL_UINT32, ACL_UINT64,  ACL_BOOL,      ACL_BF16};
constexpr OpTraits kRepeat{.header = "aclnnop/aclnn_repeat.h", .dtypes = kRepeatDtypes};

aclnnStatus PlanRepeat(Plan& plan, const aclTensor* self, const aclIntArray* repeats, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kRepeatDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  const auto count = static_cast<int64_t>(repeats->values.size());
  if (count < self->rank() || count > kRepeat.max_rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'repeats' has %lld values; it needs %lld to %lld",
                       static_cast<long long>(count), static_cast<long long>(self->rank()),
                       static_cast<long long>(kRepeat.max_rank));
  }
  Shape expected(repeats->values.size());
  Shape split;  // (repeat, extent) per dimension
  const int64_t lead = count - self->rank();
  for (int64_t d = 0; d < count; ++d) {
    const int64_t r = repeats->values[d];
    if (r < 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'repeats' holds %lld; repeats must not be negative",
                         static_cast<long long>(r));
    }
    const int64_t extent = d < lead ? 1 : self->view_shape[d - lead];
    if (extent > 0 && r > std::numeric_limits<int64_t>::max() / extent) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'repeats' holds %lld for a dimension of %lld: the repeated extent does not fit "
                         "int64",
                         static_cast<long long>(r), static_cast<long long>(extent));
    }
    expected[d] = r * extent;
    split.push_back(r);
    split.push_back(extent);
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  TensorRef tiled = PadRank(src, count);
  for (int64_t d = 0; d < count; ++d) tiled = Unsqueeze(tiled, 2 * d);  // the repeat dimension before each
  plan.Copy(*Expand(tiled, split), *Reshape(dst, split));               // splitting dimensions is always a view
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Repeat, PlanRepeat, WithExample(kRepeat, "f32[2,3] ints[2,1] f32[4,3]"), (const aclTensor*, self),
                (const aclIntArray*, repeats), (aclTensor*, out))
