// aclnnMean: out = the mean of self over dim, computed in `dtype`, then converted to out's dtype.
#include "aclnnop/aclnn_mean.h"

#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMeanDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE,    ACL_INT32,     ACL_INT64,
                                  ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus PlanMean(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, int raw_dtype,
                     const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMeanDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kMeanDtypes));
  aclDataType dtype;
  CANOPY_CHECK(CheckDtypeArgument(plan, "dtype", raw_dtype, kMeanDtypes, dtype));
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "dtype", dtype));
  CANOPY_CHECK(plan.CheckCastable(dtype, "out", out->dtype));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  return PlanReduction(plan, kernels::ReduceKind::kMean, self, reduced, keep_dim, dtype, out);
}

}  // namespace

CANOPY_ACLNN_OP(Mean, PlanMean, (OpTraits{.header = "aclnnop/aclnn_mean.h", .dtypes = kMeanDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclDataType, dtype),
                (aclTensor*, out))
