// aclnnGatherV2: slices of self along dim picked by every element of index
// (index's shape replaces dim), on the shared gather block.
#include "aclnnop/aclnn_gather_v2.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
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

}  // namespace

CANOPY_ACLNN_OP(GatherV2, PlanGatherV2, (OpTraits{.header = "aclnnop/aclnn_gather_v2.h", .dtypes = kGatherV2Dtypes}),
                (const aclTensor*, self), (int64_t, dim), (const aclTensor*, index), (aclTensor*, out))
