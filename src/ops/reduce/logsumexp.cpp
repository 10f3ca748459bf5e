// aclnnLogSumExp: log(sum(exp(self))) over dim, on the reduction engine in two
// passes: the max, then the sum of exp(x - max) (no overflow), accumulated in
// f32 (f16 / bf16 / f32 out) and converted to out.
#include "aclnnop/aclnn_logsumexp.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLogSumExpDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_INT32, ACL_INT64,
                                       ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_BOOL};

aclnnStatus PlanLogSumExp(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim,
                          const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kLogSumExpDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}));
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "out", out->dtype));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  return PlanCenteredReduction(plan, kernels::ReduceKind::kLogSumExp, self, reduced, keep_dim, out, "out");
}

}  // namespace

CANOPY_ACLNN_OP(LogSumExp, PlanLogSumExp, (OpTraits{.header = "aclnnop/aclnn_logsumexp.h", .dtypes = kLogSumExpDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclTensor*, out))
