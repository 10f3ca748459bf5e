// aclnnAmax / aclnnAmin: out = the largest / smallest element of self over dim.
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kExtremeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                     ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BOOL, ACL_BF16};

aclnnStatus PlanExtreme(Plan& plan, kernels::ReduceKind kind, const aclTensor* self, const aclIntArray* dim,
                        bool keep_dim, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kExtremeDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kExtremeDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has dtype %s; it must be self's, %s",
                       DtypeName(out->dtype), DtypeName(self->dtype));
  }
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  for (size_t d = 0; d < reduced.size(); ++d) {
    if (reduced[d] && self->view_shape[d] == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dim %zu of 'self' has extent 0: there is no %s of nothing", d,
                         kind == kernels::ReduceKind::kMax ? "maximum" : "minimum");
    }
  }
  return PlanReduction(plan, kind, self, reduced, keep_dim, self->dtype, out);
}

aclnnStatus PlanAmax(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, const aclTensor* out) {
  return PlanExtreme(plan, kernels::ReduceKind::kMax, self, dim, keep_dim, out);
}

aclnnStatus PlanAmin(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, const aclTensor* out) {
  return PlanExtreme(plan, kernels::ReduceKind::kMin, self, dim, keep_dim, out);
}

}  // namespace

CANOPY_ACLNN_OP(Amax, PlanAmax, (OpTraits{.header = "aclnnop/aclnn_amax.h", .dtypes = kExtremeDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclTensor*, out))
CANOPY_ACLNN_OP(Amin, PlanAmin, (OpTraits{.header = "aclnnop/aclnn_amin.h", .dtypes = kExtremeDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclTensor*, out))
