// aclnnSort / aclnnTopk: self sorted along dim (always stably: equal elements
// keep their order, NaN sorting as largest), the values and their int64
// indices; top-k keeps the first k of each line (largest or smallest).
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSortDtypes = {ACL_BF16,  ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT16,
                                  ACL_INT32, ACL_INT64,   ACL_UINT8, ACL_BOOL};
constexpr DtypeSet kSortValuesDtypes = {ACL_BF16,  ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT8,
                                        ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8,  ACL_BOOL};
constexpr DtypeSet kTopkDtypes = {ACL_INT8,    ACL_UINT8, ACL_INT16,  ACL_INT32, ACL_INT64,
                                  ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16};

// Registers self, values and indices and plans the sort (top-k: k along dim).
aclnnStatus PlanSorted(Plan& plan, const aclTensor* self, int64_t wrapped, bool descending, int64_t k, bool topk,
                       const aclTensor* values_out, const aclTensor* indices_out) {
  const TensorRef in = plan.Input(self, "self");
  const TensorRef values = plan.Output(values_out, "valuesOut");
  const TensorRef indices = plan.Output(indices_out, "indicesOut");
  if (values.NumElements() == 0) return ACLNN_SUCCESS;
  kernels::DimOpDesc desc;
  desc.kind = topk ? kernels::DimOpKind::kTopk : kernels::DimOpKind::kArgsort;
  desc.descending = descending;
  desc.k = k;
  PlanDimOp(plan, desc, in, indices, wrapped, false, false, &values);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSort(Plan& plan, const aclTensor* self, bool /*stable*/, int64_t dim, bool descending,
                     const aclTensor* values_out, const aclTensor* indices_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSortDtypes));
  CANOPY_CHECK(plan.CheckDtype("valuesOut", values_out->dtype, kSortValuesDtypes));
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "valuesOut", values_out->dtype));
  CANOPY_CHECK(plan.CheckDtype("indicesOut", indices_out->dtype, {ACL_INT64}));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  if (self->rank() > 0 && self->view_shape[static_cast<size_t>(wrapped)] == 1 && self->dtype == ACL_BF16) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a BFLOAT16 'self' cannot be sorted along a dim of extent 1");
  }
  CANOPY_CHECK(plan.CheckShape("valuesOut", values_out, self->view_shape));
  CANOPY_CHECK(plan.CheckShape("indicesOut", indices_out, self->view_shape));
  return PlanSorted(plan, self, wrapped, descending, 0, false, values_out, indices_out);
}

aclnnStatus PlanTopk(Plan& plan, const aclTensor* self, int64_t k, int64_t dim, bool largest, bool sorted,
                     const aclTensor* values_out, const aclTensor* indices_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kTopkDtypes));
  CANOPY_CHECK(plan.CheckDtype("valuesOut", values_out->dtype, {self->dtype}));
  CANOPY_CHECK(plan.CheckDtype("indicesOut", indices_out->dtype, {ACL_INT64}));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  const int64_t extent = self->rank() == 0 ? 1 : self->view_shape[static_cast<size_t>(wrapped)];
  if (k < 0 || k > extent) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'k' is %lld, outside [0, %lld] (the extent of dim %lld)",
                       static_cast<long long>(k), static_cast<long long>(extent), static_cast<long long>(wrapped));
  }
  Shape expected = self->view_shape;
  if (!expected.empty()) expected[static_cast<size_t>(wrapped)] = k;
  CANOPY_CHECK(plan.CheckShape("valuesOut", values_out, expected));
  CANOPY_CHECK(plan.CheckShape("indicesOut", indices_out, expected));
  // `sorted` false leaves the order free (CANN's host code passes it on although its document lists only
  // true): the k come out in order either way.
  (void)sorted;
  return PlanSorted(plan, self, wrapped, largest, k, true, values_out, indices_out);
}

}  // namespace

CANOPY_ACLNN_OP(Sort, PlanSort,
                (OpTraits{.header = "aclnnop/aclnn_sort.h",
                          .dtypes = kSortDtypes,
                          .example = "i64[3,4] false 0 false i64[3,4] i64[3,4]"}),
                (const aclTensor*, self), (bool, stable), (int64_t, dim), (bool, descending), (aclTensor*, valuesOut),
                (aclTensor*, indicesOut))
CANOPY_ACLNN_OP(Topk, PlanTopk,
                (OpTraits{.header = "aclnnop/aclnn_topk.h",
                          .dtypes = kTopkDtypes,
                          .example = "f32[2,4] 2 1 true true f32[2,2] i64[2,2]"}),
                (const aclTensor*, self), (int64_t, k), (int64_t, dim), (bool, largest), (bool, sorted),
                (aclTensor*, valuesOut), (aclTensor*, indicesOut))
