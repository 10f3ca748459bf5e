// aclnnVar, aclnnVarCorrection, aclnnVarMean, aclnnStd and
// aclnnStdMeanCorrection: the variance (or its root) of self over dim, on the
// reduction engine in two passes: the mean, then the sum of squared deviations
// from it divided by max(N - correction, 0), both accumulated in double as
// PyTorch's CPU kernel does (never E[x^2] - E[x]^2). The mean output is the
// first pass's result.
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kVarDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanVarianceOf(Plan& plan, const aclTensor* self, const aclIntArray* dim, int64_t correction, bool keep_dim,
                           bool root, const aclTensor* out, const char* out_name, const aclTensor* mean_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kVarDtypes));
  CANOPY_CHECK(plan.CheckDtype(out_name, out->dtype, kVarDtypes));
  if (mean_out != nullptr) CANOPY_CHECK(plan.CheckDtype("meanOut", mean_out->dtype, kVarDtypes));
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), true);  // a null dim: every dim
  if (dim != nullptr) CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  return PlanCenteredReduction(plan, kernels::ReduceKind::kVariance, self, reduced, keep_dim, out, out_name, mean_out,
                               static_cast<double>(correction), root);
}

aclnnStatus PlanVar(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool unbiased, bool keepdim,
                    const aclTensor* out) {
  return PlanVarianceOf(plan, self, dim, unbiased ? 1 : 0, keepdim, false, out, "out", nullptr);
}

aclnnStatus PlanVarCorrection(Plan& plan, const aclTensor* self, const aclIntArray* dim, int64_t correction,
                              bool keepdim, const aclTensor* out) {
  return PlanVarianceOf(plan, self, dim, correction, keepdim, false, out, "out", nullptr);
}

aclnnStatus PlanVarMean(Plan& plan, const aclTensor* self, const aclIntArray* dim, int64_t correction, bool keepdim,
                        const aclTensor* var_out, const aclTensor* mean_out) {
  return PlanVarianceOf(plan, self, dim, correction, keepdim, false, var_out, "varOut", mean_out);
}

aclnnStatus PlanStd(Plan& plan, const aclTensor* self, const aclIntArray* dim, int64_t correction, bool keepdim,
                    const aclTensor* out) {
  return PlanVarianceOf(plan, self, dim, correction, keepdim, true, out, "out", nullptr);
}

aclnnStatus PlanStdMeanCorrection(Plan& plan, const aclTensor* self, const aclIntArray* dim, int64_t correction,
                                  bool keepdim, const aclTensor* std_out, const aclTensor* mean_out) {
  return PlanVarianceOf(plan, self, dim, correction, keepdim, true, std_out, "stdOut", mean_out);
}

}  // namespace

CANOPY_ACLNN_OP(Var, PlanVar,
                (OpTraits{.header = "aclnnop/aclnn_var.h",
                          .dtypes = kVarDtypes,
                          .example = "f32[2,4] ints[0,1] false true f32[1,1]"}),
                (const aclTensor*, self), (const aclIntArray*, dim, optional), (bool, unbiased), (bool, keepdim),
                (aclTensor*, out))
CANOPY_ACLNN_OP(
    VarCorrection, PlanVarCorrection,
    (OpTraits{.header = "aclnnop/aclnn_var.h", .dtypes = kVarDtypes, .example = "f32[2,4] ints[0,1] 0 true f32[1,1]"}),
    (const aclTensor*, self), (const aclIntArray*, dim, optional), (int64_t, correction), (bool, keepdim),
    (aclTensor*, out))
CANOPY_ACLNN_OP(VarMean, PlanVarMean,
                (OpTraits{.header = "aclnnop/aclnn_var_mean.h",
                          .dtypes = kVarDtypes,
                          .example = "f32[2,4] ints[0,1] 1 true f32[1,1] f32[1,1]"}),
                (const aclTensor*, self), (const aclIntArray*, dim, optional), (int64_t, correction), (bool, keepdim),
                (aclTensor*, varOut), (aclTensor*, meanOut))
CANOPY_ACLNN_OP(
    Std, PlanStd,
    (OpTraits{.header = "aclnnop/aclnn_std.h", .dtypes = kVarDtypes, .example = "f32[4,2] ints[1,0] 1 false f32[]"}),
    (const aclTensor*, self), (const aclIntArray*, dim, optional), (int64_t, correction), (bool, keepdim),
    (aclTensor*, out))
CANOPY_ACLNN_OP(StdMeanCorrection, PlanStdMeanCorrection,
                (OpTraits{.header = "aclnnop/aclnn_std_mean_correction.h",
                          .dtypes = kVarDtypes,
                          .example = "f32[2,3,4] ints[0,1,2] 1 false f32[] f32[]"}),
                (const aclTensor*, self), (const aclIntArray*, dim, optional), (int64_t, correction), (bool, keepdim),
                (aclTensor*, stdOut), (aclTensor*, meanOut))
