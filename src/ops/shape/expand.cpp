// aclnnExpand: out = self broadcast to `size`, one strided copy from a view of
// self with stride 0 along the expanded dimensions (no kernel of its own).
#include "aclnnop/aclnn_expand.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kExpandDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_UINT8, ACL_INT8,
                                    ACL_INT32,   ACL_INT64, ACL_BOOL,  ACL_BF16};

// CANN's rule: size holds at least self's rank values; each of self's extents equals size's (aligned from the
// right) or is 1; out has size's shape. A -1 in size is not special (CANN's check rejects it).
aclnnStatus PlanExpand(Plan& plan, const aclTensor* self, const aclIntArray* size, const aclTensor* out) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kExpandDtypes));
  const Shape target(size->values.begin(), size->values.end());
  const auto offset = static_cast<int64_t>(target.size()) - self->rank();
  if (offset < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'size' holds %zu values; self has rank %lld", target.size(),
                       static_cast<long long>(self->rank()));
  }
  for (int64_t extent : target) {
    if (extent < 0) {  // no out shape can match it: CANN rejects the call through its out shape check
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'size' %s holds a negative extent",
                         ShapeToString(target).c_str());
    }
  }
  for (int64_t i = 0; i < self->rank(); ++i) {
    const int64_t extent = self->view_shape[i];
    if (extent != 1 && extent != target[offset + i]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self of shape %s does not broadcast to argument 'size' %s",
                         ShapeToString(self->view_shape).c_str(), ShapeToString(target).c_str());
    }
  }
  CANOPY_CHECK(plan.CheckShape("out", out, target));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (out->NumElements() == 0) return ACLNN_SUCCESS;
  plan.Copy(BroadcastTo(src, target), dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Expand, PlanExpand,
                (OpTraits{.header = "aclnnop/aclnn_expand.h",
                          .dtypes = kExpandDtypes,
                          .example = "f32[3,1] ints[2,3,4] f32[2,3,4]"}),
                (const aclTensor*, self), (const aclIntArray*, size), (aclTensor*, out))
