// aclnnInplaceScatterUpdate: CANN's slab write into a cache (a KV cache's new
// tokens). data's dimension 0 is a batch; for each row i of updates, the slab
// updates[i] (its extent along `axis` some k) is written into data at batch b
// and positions o .. o + k - 1 along axis, where indices gives (b, o): a 1-D
// indices o for batch i, a 2-D one the pair (b, o) per row, a rank-0 one o for
// batch 0 (updates then has one row). Every pair is checked at run time before
// data is written (CANN documents out-of-range offsets as unsupported); with
// repeated slabs the later row wins (slab_scatter.h).
#include "aclnnop/aclnn_scatter_update.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"
#include "slab_scatter.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN's Atlas A2 code (its document also lists UINT8, which the code rejects).
constexpr DtypeSet kScatterUpdateDtypes = {ACL_INT8, ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT32};

aclnnStatus PlanInplaceScatterUpdate(Plan& plan, const aclTensor* data, const aclTensor* indices,
                                     const aclTensor* updates, int64_t axis) {
  CANOPY_CHECK(plan.CheckDtype("data", data->dtype, kScatterUpdateDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "updates", updates, "data", data));
  if (data->NumElements() == 0 || updates->NumElements() == 0 || indices->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "data %s, indices %s and updates %s must not be empty",
                       ShapeToString(data->view_shape).c_str(), ShapeToString(indices->view_shape).c_str(),
                       ShapeToString(updates->view_shape).c_str());
  }
  if (data->rank() != updates->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "data (rank %lld) and updates (rank %lld) must have one rank",
                       static_cast<long long>(data->rank()), static_cast<long long>(updates->rank()));
  }
  int64_t a = 0;
  CANOPY_CHECK(CheckSlabsFit(plan, ACLNN_ERR_PARAM_INVALID, "data", data, indices, updates, axis, a));
  plan.Input(data, "data");
  const TensorRef pairs = plan.Input(indices, "indices");
  const TensorRef slabs = plan.Input(updates, "updates");
  const TensorRef dst = plan.Output(data, "data");
  plan.AddStep(MakeSlabScatterStep(plan.op(), dst, pairs, slabs, a), {pairs, slabs}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplaceScatterUpdate, PlanInplaceScatterUpdate,
                (OpTraits{.header = "aclnnop/aclnn_scatter_update.h",
                          .dtypes = kScatterUpdateDtypes,
                          .in_place = true,
                          .example = "f32[1,1,2,8] i64[1]{1:1} f32[1,1,1,8] -2"}),
                (aclTensor*, data), (const aclTensor*, indices), (const aclTensor*, updates), (int64_t, axis))
