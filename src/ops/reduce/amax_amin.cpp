// aclnnAmax / aclnnAmin: out = the largest / smallest element of self over dim;
// aclnnMax / aclnnMin: over every element, into a one-element out. NaN
// propagates; there is no extreme of nothing (161002, as PyTorch).
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_min.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kExtremeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                     ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BOOL, ACL_BF16};

// `out_converts`: out may have another listed dtype, into which the extreme
// (found in self's dtype) is converted (aclnnMax's document sets no rule; CANN casts).
aclnnStatus PlanExtremeOver(Plan& plan, kernels::ReduceKind kind, const aclTensor* self,
                            const std::vector<bool>& reduced, bool keep_dim, const aclTensor* out, bool out_converts) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kExtremeDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kExtremeDtypes));
  if (!out_converts && out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has dtype %s; it must be self's, %s",
                       DtypeName(out->dtype), DtypeName(self->dtype));
  }
  for (size_t d = 0; d < reduced.size(); ++d) {
    if (reduced[d] && self->view_shape[d] == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dim %zu of 'self' has extent 0: there is no %s of nothing", d,
                         kind == kernels::ReduceKind::kMax ? "maximum" : "minimum");
    }
  }
  return PlanReduction(plan, kind, self, reduced, keep_dim, self->dtype, out);
}

aclnnStatus PlanExtreme(Plan& plan, kernels::ReduceKind kind, const aclTensor* self, const aclIntArray* dim,
                        bool keep_dim, const aclTensor* out) {
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  return PlanExtremeOver(plan, kind, self, reduced, keep_dim, out, false);
}

aclnnStatus PlanAmax(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, const aclTensor* out) {
  return PlanExtreme(plan, kernels::ReduceKind::kMax, self, dim, keep_dim, out);
}

aclnnStatus PlanAmin(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, const aclTensor* out) {
  return PlanExtreme(plan, kernels::ReduceKind::kMin, self, dim, keep_dim, out);
}

// Every dim; out holds one element (CANN documents [1], and [] for Min).
std::vector<bool> EveryDim(const aclTensor* self) { return std::vector<bool>(static_cast<size_t>(self->rank()), true); }

aclnnStatus PlanMax(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanExtremeOver(plan, kernels::ReduceKind::kMax, self, EveryDim(self), false, out, true);
}

aclnnStatus PlanMin(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanExtremeOver(plan, kernels::ReduceKind::kMin, self, EveryDim(self), false, out, false);
}

}  // namespace

CANOPY_ACLNN_OP(Amax, PlanAmax, (OpTraits{.header = "aclnnop/aclnn_amax.h", .dtypes = kExtremeDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclTensor*, out))
CANOPY_ACLNN_OP(Amin, PlanAmin, (OpTraits{.header = "aclnnop/aclnn_amin.h", .dtypes = kExtremeDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclTensor*, out))
CANOPY_ACLNN_OP(Max, PlanMax, (OpTraits{.header = "aclnnop/aclnn_max.h", .dtypes = kExtremeDtypes}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(Min, PlanMin, (OpTraits{.header = "aclnnop/aclnn_min.h", .dtypes = kExtremeDtypes}),
                (const aclTensor*, self), (aclTensor*, out))
