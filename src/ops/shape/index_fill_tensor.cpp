// aclnnIndexFillTensor and aclnnInplaceIndexFillTensor: the slices of self
// along dim at the positions `index` lists (an aclIntArray, so checked in
// phase 1; negative positions count from the end) set to value, into out (a
// copy of self) or self itself. Runs of consecutive positions fill as one view.
#include <algorithm>
#include <vector>

#include "aclnnop/aclnn_index_fill_tensor.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIndexFillDtypes = {ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_INT64, ACL_BOOL, ACL_BF16};

bool IsComplexDtype(aclDataType dtype) { return dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128; }

// `out` is self itself for the in-place form.
aclnnStatus PlanIndexFillInto(Plan& plan, const aclTensor* self, int64_t dim, const aclIntArray* index,
                              const aclScalar* value, const aclTensor* out) {
  const bool in_place = out == self;
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kIndexFillDtypes));
  if (!in_place) {
    CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
    CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  }
  if (self->NumElements() == 0) {  // as CANN has it: nothing to fill, dim and index go unchecked
    plan.Input(self, self_name);
    plan.Output(out, in_place ? "selfRef" : "out");
    return ACLNN_SUCCESS;
  }
  // A rank-0 self counts as one dimension of extent 1 (dim -1 or 0).
  const int64_t rank = std::max<int64_t>(self->rank(), 1);
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, rank, d));
  const int64_t extent = self->rank() == 0 ? 1 : self->view_shape[static_cast<size_t>(d)];
  std::vector<int64_t> positions;
  for (const int64_t i : index->values) {
    if (i < -extent || i >= extent) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'index' holds %lld, out of range for dimension %lld of extent %lld (valid: [%lld, "
                         "%lld))",
                         static_cast<long long>(i), static_cast<long long>(d), static_cast<long long>(extent),
                         static_cast<long long>(-extent), static_cast<long long>(extent));
    }
    positions.push_back(i < 0 ? i + extent : i);
  }
  if (IsComplexDtype(value->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'value' is complex (%s); it must be real",
                       DtypeName(value->dtype));
  }
  const TensorRef src = plan.Input(self, self_name);
  TensorRef dst = plan.Output(out, in_place ? "selfRef" : "out");
  if (!in_place) plan.Copy(src, dst);
  if (self->rank() == 0) dst = Unsqueeze(dst, 0);
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  const ScalarValue fill = ValueOf(*value);
  for (size_t k = 0; k < positions.size();) {
    size_t end = k + 1;
    while (end < positions.size() && positions[end] == positions[end - 1] + 1) ++end;
    plan.Fill(Narrow(dst, d, positions[k], static_cast<int64_t>(end - k)), fill);
    k = end;
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanIndexFillTensor(Plan& plan, const aclTensor* self, int64_t dim, const aclIntArray* index,
                                const aclScalar* value, const aclTensor* out) {
  return PlanIndexFillInto(plan, self, dim, index, value, out);
}

aclnnStatus PlanInplaceIndexFillTensor(Plan& plan, const aclTensor* self, int64_t dim, const aclIntArray* index,
                                       const aclScalar* value) {
  return PlanIndexFillInto(plan, self, dim, index, value, self);
}

constexpr OpTraits kIndexFill{.header = "aclnnop/aclnn_index_fill_tensor.h", .dtypes = kIndexFillDtypes};

}  // namespace

CANOPY_ACLNN_OP(IndexFillTensor, PlanIndexFillTensor, kIndexFill, (const aclTensor*, self), (int64_t, dim),
                (const aclIntArray*, index), (const aclScalar*, value), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceIndexFillTensor, PlanInplaceIndexFillTensor, InPlace(kIndexFill), (aclTensor*, selfRef),
                (int64_t, dim), (const aclIntArray*, index), (const aclScalar*, value))
