// aclnnArgsort: the int64 indices that sort self along dim, ascending or
// descending; stable (equal elements keep their order), NaN sorting as largest.
#include "aclnnop/aclnn_argsort.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kArgsortDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,  ACL_INT16,
                                     ACL_INT32, ACL_INT64,   ACL_UINT8, ACL_BF16};

aclnnStatus PlanArgsort(Plan& plan, const aclTensor* self, int64_t dim, bool descending, const aclTensor* out) {
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  if (self->rank() > 0 && self->view_shape[static_cast<size_t>(wrapped)] == 1 && self->dtype == ACL_BF16) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a BFLOAT16 'self' cannot be sorted along a dim of extent 1");
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kArgsortDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_INT64}));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  kernels::DimOpDesc desc;
  desc.kind = kernels::DimOpKind::kArgsort;
  desc.descending = descending;
  PlanDimOp(plan, desc, in, dst, wrapped, false, false);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    Argsort, PlanArgsort,
    (OpTraits{.header = "aclnnop/aclnn_argsort.h", .dtypes = kArgsortDtypes, .example = "f32[2,3] 1 false i64[2,3]"}),
    (const aclTensor*, self), (int64_t, dim), (bool, descending), (aclTensor*, out))
