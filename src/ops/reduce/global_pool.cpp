// aclnnGlobalAveragePool and aclnnGlobalMaxPool (ONNX): out[n, c, 1, ...] =
// the mean or the maximum of self[n, c] over every spatial dimension (2 on),
// on the reduction engine; self of rank 4 to 8 in ND, NCHW or NCDHW, out of
// the same rank, format and dtype.
#include "aclnnop/aclnn_global_average_pool.h"
#include "aclnnop/aclnn_global_max_pool.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAverageDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeSet kMaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};

bool IsPoolFormat(aclFormat format) {
  return format == ACL_FORMAT_ND || format == ACL_FORMAT_NCHW || format == ACL_FORMAT_NCDHW;
}

template <kernels::ReduceKind kKind>
aclnnStatus PlanGlobalPool(Plan& plan, const aclTensor* self, const aclTensor* out) {
  const DtypeSet dtypes = kKind == kernels::ReduceKind::kMean ? kAverageDtypes : kMaxDtypes;
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, dtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, dtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{self->dtype}));
  if (self->format != out->format || !IsPoolFormat(self->format)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "self and out must share one format of ND, NCHW and NCDHW, not %d and %d",
                       static_cast<int>(self->format), static_cast<int>(out->format));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 8));
  CANOPY_CHECK(plan.CheckRank("out", out, self->rank(), self->rank()));
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), true);
  reduced[0] = reduced[1] = false;
  // A maximum over no spatial elements has no value.
  const int64_t planes = self->view_shape[0] * self->view_shape[1];
  if (kKind == kernels::ReduceKind::kMax && planes > 0 && self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s has no spatial elements to take the maximum of",
                       ShapeToString(self->view_shape).c_str());
  }
  return PlanReduction(plan, kKind, self, reduced, /*keep_dims=*/true, self->dtype, out);
}

}  // namespace

CANOPY_ACLNN_OP(GlobalAveragePool, PlanGlobalPool<kernels::ReduceKind::kMean>,
                (OpTraits{.header = "aclnnop/aclnn_global_average_pool.h",
                          .dtypes = kAverageDtypes,
                          .example = "f32[1,3,2,2] f32[1,3,1,1]"}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(GlobalMaxPool, PlanGlobalPool<kernels::ReduceKind::kMax>,
                (OpTraits{.header = "aclnnop/aclnn_global_max_pool.h",
                          .dtypes = kMaxDtypes,
                          .example = "f32[1,3,2,2] f32[1,3,1,1]"}),
                (const aclTensor*, self), (aclTensor*, out))
