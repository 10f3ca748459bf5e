// aclnnCast: out = self converted to `dtype`.
#include "aclnnop/aclnn_cast.h"

#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCastDtypes = {ACL_FLOAT16, ACL_FLOAT,  ACL_DOUBLE,    ACL_INT8,       ACL_UINT8,
                                  ACL_INT16,   ACL_UINT16, ACL_INT32,     ACL_UINT32,     ACL_INT64,
                                  ACL_UINT64,  ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

// `raw_dtype` is the int a C caller passed: only an enumerator may be read as aclDataType.
aclnnStatus PlanCast(Plan& plan, const aclTensor* self, int raw_dtype, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kCastDtypes));
  if (!IsDtypeValue(raw_dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dtype' is %d, not a value of aclDataType", raw_dtype);
  }
  const auto dtype = static_cast<aclDataType>(raw_dtype);
  CANOPY_CHECK(plan.CheckDtype("dtype", dtype, kCastDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kCastDtypes));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));

  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (out->dtype == dtype) {
    plan.Copy(src, dst);
  } else {
    // CANN converts to `dtype` first and then copies into `out`: keep both roundings.
    const TensorRef converted = plan.Temporary(dtype, src.shape);
    plan.Copy(src, converted);
    plan.Copy(converted, dst);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Cast, PlanCast, (OpTraits{.header = "aclnnop/aclnn_cast.h", .dtypes = kCastDtypes}),
                (const aclTensor*, self), (const aclDataType, dtype), (aclTensor*, out))
