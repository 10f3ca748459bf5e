// aclnnGather (torch.gather): out[p] = self[p with p[dim] replaced by
// index[p]], out of index's shape. Index values may be negative (counted from
// the end, as PyTorch allows); they are checked at run time on the shared
// index check of gather.h, so one outside [-n, n) fails the stream task with a
// message and nothing is written.
#include "aclnnop/aclnn_gather.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGatherDtypes = {ACL_FLOAT,  ACL_INT32,  ACL_FLOAT16, ACL_INT8,  ACL_DOUBLE, ACL_INT16, ACL_INT64,
                                    ACL_UINT64, ACL_UINT32, ACL_UINT16,  ACL_UINT8, ACL_BOOL,   ACL_BF16};

aclnnStatus PlanGatherOp(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGatherDtypes));
  if (index->NumElements() != 0) CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  const int64_t rank = std::max<int64_t>(self->rank(), 1);  // rank 0 counts as 1
  if (std::max<int64_t>(index->rank(), 1) != rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' has rank %lld; it must have self's rank %lld",
                       static_cast<long long>(index->rank()), static_cast<long long>(self->rank()));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, index->view_shape));
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, rank, d));
  if (index->NumElements() != 0) {
    for (int64_t i = 0; i < self->rank(); ++i) {
      if (i == d && self->view_shape[i] == 0) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has no elements along dim %lld, so 'index' must be empty",
                           static_cast<long long>(d));
      }
      if (i != d && index->view_shape[i] > self->view_shape[i]) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                           "argument 'index' of shape %s exceeds self of shape %s at dimension %lld",
                           ShapeToString(index->view_shape).c_str(), ShapeToString(self->view_shape).c_str(),
                           static_cast<long long>(i));
      }
    }
  }
  TensorRef src = plan.Input(self, "self");
  TensorRef indices = plan.Input(index, "index");
  TensorRef dst = plan.Output(out, "out");
  if (self->rank() == 0) src = Unsqueeze(src, 0);  // one element: a dimension of extent 1
  if (index->rank() == 0) {
    indices = Unsqueeze(indices, 0);
    dst = Unsqueeze(dst, 0);
  }
  const std::optional<TensorRef> values =
      PlanIndexValues(plan, indices, "index", d, src.shape[d], IndexSign::kNegativeFromEnd);
  if (values) PlanGatherElements(plan, src, d, *values, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Gather, PlanGatherOp, (OpTraits{.header = "aclnnop/aclnn_gather.h", .dtypes = kGatherDtypes}),
                (const aclTensor*, self), (const int64_t, dim), (const aclTensor*, index), (aclTensor*, out))
