// aclnnMaxDim / aclnnMinDim: along dim, the largest / smallest element of self
// (NaN counting as largest / smallest, so it propagates) and the index of its
// first occurrence, on the along-one-dim kernel (no transposing copy).
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_min_dim.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDimExtremeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BOOL, ACL_BF16};

aclnnStatus PlanDimExtreme(Plan& plan, kernels::DimOpKind kind, const aclTensor* self, int64_t dim, bool keepdim,
                           const aclTensor* out, const aclTensor* indices) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kDimExtremeDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {self->dtype}));
  // MinDim's document lists INT32 indices only; CANN's code writes either, as MaxDim documents.
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, {ACL_INT32, ACL_INT64}));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), false);
  if (self->rank() > 0) reduced[static_cast<size_t>(wrapped)] = true;
  const Shape expected = ReducedShape(self->view_shape, reduced, keepdim);
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  CANOPY_CHECK(plan.CheckShape("indices", indices, expected));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef values = plan.Output(out, "out");
  const TensorRef index = plan.Output(indices, "indices");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;  // CANN computes nothing
  kernels::DimOpDesc desc;
  desc.kind = kind;
  PlanDimOp(plan, desc, in, index, wrapped, true, keepdim, &values);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMaxDim(Plan& plan, const aclTensor* self, int64_t dim, bool keepdim, const aclTensor* out,
                       const aclTensor* indices) {
  return PlanDimExtreme(plan, kernels::DimOpKind::kArgMax, self, dim, keepdim, out, indices);
}

aclnnStatus PlanMinDim(Plan& plan, const aclTensor* self, int64_t dim, bool keepdim, const aclTensor* out,
                       const aclTensor* indices) {
  return PlanDimExtreme(plan, kernels::DimOpKind::kArgMin, self, dim, keepdim, out, indices);
}

}  // namespace

CANOPY_ACLNN_OP(MaxDim, PlanMaxDim,
                (OpTraits{.header = "aclnnop/aclnn_max_dim.h",
                          .dtypes = kDimExtremeDtypes,
                          .example = "f32[4,2] 0 false f32[2] i32[2]"}),
                (const aclTensor*, self), (int64_t, dim), (bool, keepdim), (aclTensor*, out), (aclTensor*, indices))
CANOPY_ACLNN_OP(MinDim, PlanMinDim,
                (OpTraits{.header = "aclnnop/aclnn_min_dim.h",
                          .dtypes = kDimExtremeDtypes,
                          .example = "f32[4,2] 0 false f32[2] i32[2]"}),
                (const aclTensor*, self), (int64_t, dim), (bool, keepdim), (aclTensor*, out), (aclTensor*, indices))
