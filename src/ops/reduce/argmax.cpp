// aclnnArgMax / aclnnArgMin: the index of the first largest / smallest element
// of self along dim (NaN counting as largest / smallest), as int32 or int64.
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kArgExtremeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                        ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8};

aclnnStatus PlanArgExtreme(Plan& plan, kernels::DimOpKind kind, const aclTensor* self, int64_t dim, bool keepdim,
                           const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kArgExtremeDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_INT32, ACL_INT64}));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), false);
  if (self->rank() > 0) reduced[static_cast<size_t>(wrapped)] = true;
  // ArgMin's document: a reduced dim of extent 0 is not supported (nor is it in PyTorch).
  if (kind == kernels::DimOpKind::kArgMin && self->rank() > 0 && self->view_shape[static_cast<size_t>(wrapped)] == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dim %lld of 'self' has extent 0: there is no minimum of nothing",
                       static_cast<long long>(wrapped));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, ReducedShape(self->view_shape, reduced, keepdim)));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;  // nothing to compare: CANN computes nothing
  kernels::DimOpDesc desc;
  desc.kind = kind;
  PlanDimOp(plan, desc, in, dst, wrapped, true, keepdim);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanArgMax(Plan& plan, const aclTensor* self, int64_t dim, bool keepdim, const aclTensor* out) {
  return PlanArgExtreme(plan, kernels::DimOpKind::kArgMax, self, dim, keepdim, out);
}

aclnnStatus PlanArgMin(Plan& plan, const aclTensor* self, int64_t dim, bool keepdim, const aclTensor* out) {
  return PlanArgExtreme(plan, kernels::DimOpKind::kArgMin, self, dim, keepdim, out);
}

}  // namespace

CANOPY_ACLNN_OP(
    ArgMax, PlanArgMax,
    (OpTraits{.header = "aclnnop/aclnn_argmax.h", .dtypes = kArgExtremeDtypes, .example = "f32[2,3] 1 false i64[2]"}),
    (const aclTensor*, self), (int64_t, dim), (bool, keepdim), (aclTensor*, out))
CANOPY_ACLNN_OP(
    ArgMin, PlanArgMin,
    (OpTraits{.header = "aclnnop/aclnn_argmin.h", .dtypes = kArgExtremeDtypes, .example = "f32[2,3] 1 false i64[2]"}),
    (const aclTensor*, self), (int64_t, dim), (bool, keepdim), (aclTensor*, out))
