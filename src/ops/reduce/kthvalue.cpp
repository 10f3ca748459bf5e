// aclnnKthvalue: along dim, the k-th smallest element of self (k from 1, in
// the ascending order of CANN's stable sort: NaN largest, equal elements by
// position) and its index; a selection on the along-one-dim kernel, no sort.
#include "aclnnop/aclnn_kthvalue.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kKthvalueDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16,
                                      ACL_INT16, ACL_INT8,  ACL_UINT8, ACL_BF16};

aclnnStatus PlanKthvalue(Plan& plan, const aclTensor* self, int64_t k, int64_t dim, bool keep_dim,
                         const aclTensor* values_out, const aclTensor* indices_out) {
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  const int64_t extent = self->rank() == 0 ? 1 : self->view_shape[static_cast<size_t>(wrapped)];
  if (k <= 0 || k > extent) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'k' is %lld, outside [1, %lld] (the extent of dim %lld)",
                       static_cast<long long>(k), static_cast<long long>(extent), static_cast<long long>(wrapped));
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kKthvalueDtypes));
  CANOPY_CHECK(plan.CheckDtype("valuesOut", values_out->dtype, {self->dtype}));
  CANOPY_CHECK(plan.CheckDtype("indicesOut", indices_out->dtype, {ACL_INT64}));
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), false);
  if (self->rank() > 0) reduced[static_cast<size_t>(wrapped)] = true;
  const Shape expected = ReducedShape(self->view_shape, reduced, keep_dim);
  CANOPY_CHECK(CheckReducedOut(plan, "valuesOut", values_out, expected));
  CANOPY_CHECK(CheckReducedOut(plan, "indicesOut", indices_out, expected));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef values = plan.Output(values_out, "valuesOut");
  const TensorRef indices = plan.Output(indices_out, "indicesOut");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  kernels::DimOpDesc desc;
  desc.kind = kernels::DimOpKind::kKthvalue;
  desc.k = k - 1;
  PlanDimOp(plan, desc, in, indices, wrapped, true, keep_dim, &values);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Kthvalue, PlanKthvalue,
                (OpTraits{.header = "aclnnop/aclnn_kthvalue.h",
                          .dtypes = kKthvalueDtypes,
                          .example = "f32[3,4] 2 1 false f32[3] i64[3]"}),
                (const aclTensor*, self), (int64_t, k), (int64_t, dim), (bool, keepdim), (aclTensor*, valuesOut),
                (aclTensor*, indicesOut))
