// aclnnCumsum / aclnnCumsumV2: running sums of self along dim, in out's dtype
// (self converted to it first); V2 can leave each element out of its own sum
// (exclusive) and sum from the end (reverse).
#include "aclnnop/aclnn_cumsum.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCumsumDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32,     ACL_DOUBLE,     ACL_UINT8, ACL_INT8,
                                    ACL_INT16, ACL_INT64,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus PlanCumsumOf(Plan& plan, const aclTensor* self, int64_t dim, bool exclusive, bool reverse,
                         const aclTensor* out) {
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  // CANN casts self to out's dtype (as aclnnCast does) before summing.
  const TensorRef src = in.dtype == dst.dtype ? in : plan.Contiguous(in, dst.dtype);
  kernels::DimOpDesc desc;
  desc.kind = kernels::DimOpKind::kCumsum;
  desc.exclusive = exclusive;
  desc.reverse = reverse;
  PlanDimOp(plan, desc, src, dst, wrapped, false, false);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanCumsum(Plan& plan, const aclTensor* self, int64_t dim, int raw_dtype, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kCumsumDtypes));
  aclDataType dtype;
  CANOPY_CHECK(CheckDtypeArgument(plan, "dtype", raw_dtype, kCumsumDtypes, dtype));
  if (dtype != out->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dtype' is %s but 'out' has dtype %s", DtypeName(dtype),
                       DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kCumsumDtypes));
  return PlanCumsumOf(plan, self, dim, false, false, out);
}

aclnnStatus PlanCumsumV2(Plan& plan, const aclTensor* self, int64_t dim, bool exclusive, bool reverse,
                         const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kCumsumDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {self->dtype}));
  return PlanCumsumOf(plan, self, dim, exclusive, reverse, out);
}

constexpr OpTraits kCumsumTraits{.header = "aclnnop/aclnn_cumsum.h", .dtypes = kCumsumDtypes};

}  // namespace

CANOPY_ACLNN_OP(Cumsum, PlanCumsum, kCumsumTraits, (const aclTensor*, self), (int64_t, dim), (aclDataType, dtype),
                (aclTensor*, out))
CANOPY_ACLNN_OP(CumsumV2, PlanCumsumV2, kCumsumTraits, (const aclTensor*, self), (int64_t, dim), (bool, exclusive),
                (bool, reverse), (aclTensor*, out))
