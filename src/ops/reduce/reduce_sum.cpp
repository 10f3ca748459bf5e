// aclnnReduceSum: out = the sum of self over dims, in `dtype` (which out must hold).
#include "aclnnop/aclnn_reduce_sum.h"

#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kReduceSumDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8,   ACL_INT16,     ACL_INT32,      ACL_INT64,
                                       ACL_UINT8,   ACL_BOOL,  ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus PlanReduceSum(Plan& plan, const aclTensor* self, const aclIntArray* dims, bool keep_dims, int raw_dtype,
                          const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kReduceSumDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kReduceSumDtypes));
  aclDataType dtype;
  CANOPY_CHECK(CheckDtypeArgument(plan, "dtype", raw_dtype, kReduceSumDtypes, dtype));
  if (dtype != out->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dtype' is %s but 'out' has dtype %s", DtypeName(dtype),
                       DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "dtype", dtype));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dims", dims, self->rank(), reduced));
  return PlanReductionInDtype(plan, kernels::ReduceKind::kSum, self, reduced, keep_dims, dtype, out);
}

}  // namespace

CANOPY_ACLNN_OP(ReduceSum, PlanReduceSum,
                (OpTraits{.header = "aclnnop/aclnn_reduce_sum.h", .dtypes = kReduceSumDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dims), (bool, keepDims), (aclDataType, dtype),
                (aclTensor*, out))
