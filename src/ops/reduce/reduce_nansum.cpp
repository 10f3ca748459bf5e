// aclnnReduceNansum: the sum of self over dim with NaN taken as 0, in `dtype`
// (which out must hold), on the reduction engine (accumulating as ReduceSum).
#include "aclnnop/aclnn_reduce_nansum.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNansumDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT16, ACL_INT32,
                                    ACL_INT64,   ACL_UINT8, ACL_BOOL, ACL_BF16};

aclnnStatus PlanReduceNansum(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, int raw_dtype,
                             const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kNansumDtypes));
  aclDataType dtype;
  CANOPY_CHECK(CheckDtypeArgument(plan, "dtype", raw_dtype, kNansumDtypes, dtype));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kNansumDtypes));
  if (dtype != out->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dtype' is %s but 'out' has dtype %s", DtypeName(dtype),
                       DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "out", out->dtype));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  return PlanReductionInDtype(plan, kernels::ReduceKind::kNansum, self, reduced, keep_dim, dtype, out);
}

}  // namespace

CANOPY_ACLNN_OP(ReduceNansum, PlanReduceNansum,
                (OpTraits{.header = "aclnnop/aclnn_reduce_nansum.h",
                          .dtypes = kNansumDtypes,
                          .example = "f32[4,2] ints[0] false 0 f32[2]"}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclDataType, dtype),
                (aclTensor*, out))
