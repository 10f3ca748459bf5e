// aclnnCummax / aclnnCummin: the running maximum / minimum of self along dim
// and the index where it was reached (ties and NaN take the latest index, as
// PyTorch), on the along-one-dim kernel.
#include "aclnnop/aclnn_cummax.h"
#include "aclnnop/aclnn_cummin.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCumExtremeDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_INT8,
                                        ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL,  ACL_BF16};

aclnnStatus PlanCumExtreme(Plan& plan, kernels::DimOpKind kind, const aclTensor* self, int64_t dim,
                           const aclTensor* values_out, const aclTensor* indices_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kCumExtremeDtypes));
  CANOPY_CHECK(plan.CheckDtype("valuesOut", values_out->dtype, kCumExtremeDtypes));
  // Cummin's document asks for self's dtype; Cummax's converts (self castable to it).
  if (kind == kernels::DimOpKind::kCummin) {
    CANOPY_CHECK(plan.CheckDtype("valuesOut", values_out->dtype, {self->dtype}));
  } else {
    CANOPY_CHECK(plan.CheckCastable(self->dtype, "valuesOut", values_out->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("indicesOut", indices_out->dtype, {ACL_INT32, ACL_INT64}));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  CANOPY_CHECK(plan.CheckShape("valuesOut", values_out, self->view_shape));
  CANOPY_CHECK(plan.CheckShape("indicesOut", indices_out, self->view_shape));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef values = plan.Output(values_out, "valuesOut");
  const TensorRef indices = plan.Output(indices_out, "indicesOut");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  kernels::DimOpDesc desc;
  desc.kind = kind;
  PlanDimOp(plan, desc, in, indices, wrapped, false, false, &values);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanCummax(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* values_out,
                       const aclTensor* indices_out) {
  return PlanCumExtreme(plan, kernels::DimOpKind::kCummax, self, dim, values_out, indices_out);
}

aclnnStatus PlanCummin(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* values_out,
                       const aclTensor* indices_out) {
  return PlanCumExtreme(plan, kernels::DimOpKind::kCummin, self, dim, values_out, indices_out);
}

}  // namespace

CANOPY_ACLNN_OP(Cummax, PlanCummax,
                (OpTraits{.header = "aclnnop/aclnn_cummax.h",
                          .dtypes = kCumExtremeDtypes,
                          .example = "f32[2,4] 0 f32[2,4] i64[2,4]"}),
                (const aclTensor*, self), (int64_t, dim), (aclTensor*, valuesOut), (aclTensor*, indicesOut))
CANOPY_ACLNN_OP(Cummin, PlanCummin,
                (OpTraits{.header = "aclnnop/aclnn_cummin.h",
                          .dtypes = kCumExtremeDtypes,
                          .example = "f32[2,4] 0 f32[2,4] i64[2,4]"}),
                (const aclTensor*, self), (int64_t, dim), (aclTensor*, valuesOut), (aclTensor*, indicesOut))
