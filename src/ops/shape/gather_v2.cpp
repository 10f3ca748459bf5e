// aclnnGatherV2: slices of self along dim picked by every element of index
// (index's shape replaces dim), on the shared gather block. aclnnGatherV3: the
// same, where a rank-0 index removes dim; CANN's Atlas A2 path takes dim 0
// (as given, not -rank), batchDims 0 and mode 1 only, and indices in
// [0, extent) (no negatives: a run-time error here).
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_gather_v3.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGatherV2Dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT64,  ACL_INT32,     ACL_INT16,      ACL_INT8,
                                      ACL_UINT8, ACL_BOOL,    ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus PlanGatherV2(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGatherV2Dtypes));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, std::max<int64_t>(self->rank(), 1), d));  // rank 0 counts as 1
  // index's shape replaces dimension dim (a rank-0 index counts as [1]); a rank-0 self gives a rank-0 out.
  Shape expected;
  if (self->rank() > 0) {
    const Shape& s = self->view_shape;
    expected.assign(s.begin(), s.begin() + d);
    if (index->rank() == 0) {
      expected.push_back(1);
    } else {
      expected.insert(expected.end(), index->view_shape.begin(), index->view_shape.end());
    }
    expected.insert(expected.end(), s.begin() + d + 1, s.end());
  } else if (index->NumElements() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a rank-0 self takes one index; 'index' has shape %s",
                       ShapeToString(index->view_shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  // CANN runs GatherV2's kernel with negative_index_support: -1 is the last slice.
  PlanGatherArguments(plan, self, d, index, out, IndexSign::kNegativeFromEnd);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanGatherV3(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index, int64_t batch_dims,
                         int64_t mode, const aclTensor* out) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGatherV2Dtypes));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, std::max<int64_t>(self->rank(), 1), d));  // rank 0 counts as 1
  Shape expected = self->view_shape;  // a rank-0 self gathers its one element
  if (self->rank() > 0) {
    expected.erase(expected.begin() + d);
    expected.insert(expected.begin() + d, index->view_shape.begin(), index->view_shape.end());
  } else if (index->NumElements() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a rank-0 self takes one index; 'index' has shape %s",
                       ShapeToString(index->view_shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  if (dim != 0 || batch_dims != 0 || mode != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "Atlas A2 takes dim 0, batchDims 0 and mode 1 only, not dim %lld, batchDims %lld, mode %lld",
                       static_cast<long long>(dim), static_cast<long long>(batch_dims), static_cast<long long>(mode));
  }
  TensorRef src = plan.Input(self, "self");
  TensorRef indices = plan.Input(index, "index");
  TensorRef dst = plan.Output(out, "out");
  if (self->rank() == 0) {  // one element along a dimension of extent 1; index and out one element
    src = Unsqueeze(src, 0);
    dst = Unsqueeze(dst, 0);
    indices = *Reshape(indices, {1});
  }
  PlanGather(plan, src, 0, indices, "index", dst, IndexSign::kNonNegative);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(GatherV3, PlanGatherV3,
                (OpTraits{.header = "aclnnop/aclnn_gather_v3.h",
                          .dtypes = kGatherV2Dtypes,
                          .example = "f32[2,2] 0 i64[2,2]{0:1} 0 1 f32[2,2,2]"}),
                (const aclTensor*, self), (int64_t, dim), (const aclTensor*, index), (int64_t, batchDims),
                (int64_t, mode), (aclTensor*, out))
CANOPY_ACLNN_OP(GatherV2, PlanGatherV2, (OpTraits{.header = "aclnnop/aclnn_gather_v2.h", .dtypes = kGatherV2Dtypes}),
                (const aclTensor*, self), (int64_t, dim), (const aclTensor*, index), (aclTensor*, out))
