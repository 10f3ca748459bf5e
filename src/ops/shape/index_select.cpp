// aclnnIndexSelect: slices of self along dim picked by a 0-D or 1-D index, on
// the shared gather block.
#include "aclnnop/aclnn_index_select.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIndexSelectDtypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_INT64,     ACL_INT32,
                                         ACL_INT16,  ACL_INT8,    ACL_UINT8,  ACL_UINT16,    ACL_UINT32,
                                         ACL_UINT64, ACL_BOOL,    ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus PlanIndexSelect(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                            const aclTensor* out) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kIndexSelectDtypes));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  if (self->rank() == 0 && out->rank() != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self is rank 0, so out must be too; it has shape %s",
                       ShapeToString(out->view_shape).c_str());
  }
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, std::max<int64_t>(self->rank(), 1), d));  // rank 0 counts as 1
  if (index->rank() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' has rank %lld; it must be 0 or 1",
                       static_cast<long long>(index->rank()));
  }
  if (self->rank() > 0) {
    Shape expected = self->view_shape;
    expected[d] = index->NumElements();
    CANOPY_CHECK(plan.CheckShape("out", out, expected));
  } else if (index->NumElements() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a rank-0 self takes one index; 'index' has shape %s",
                       ShapeToString(index->view_shape).c_str());
  }
  PlanGatherArguments(plan, self, d, index, out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(IndexSelect, PlanIndexSelect,
                (OpTraits{.header = "aclnnop/aclnn_index_select.h", .dtypes = kIndexSelectDtypes}),
                (const aclTensor*, self), (int64_t, dim), (const aclTensor*, index), (aclTensor*, out))
