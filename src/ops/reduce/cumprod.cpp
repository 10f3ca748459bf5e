// aclnnCumprod / aclnnInplaceCumprod: running products of input along dim (an
// INT32 or INT64 scalar), in the computation dtype (ACL_DT_UNDEFINED: out's),
// input converted to it first; on the along-one-dim kernel as Cumsum.
#include "aclnnop/aclnn_cumprod.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCumprodDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,   ACL_INT16,
                                     ACL_INT32, ACL_INT64,   ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64};

// `input_name`: "input", or "inputRef" in place (the registry's name for a written first argument).
aclnnStatus PlanCumprodOf(Plan& plan, const char* input_name, const aclTensor* input, const aclScalar* dim,
                          int raw_dtype, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype(input_name, input->dtype, kCumprodDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kCumprodDtypes));
  CANOPY_CHECK(plan.CheckDtype("dim", dim->dtype, {ACL_INT32, ACL_INT64}));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", ValueOf(*dim).integer, input->rank(), wrapped));
  CANOPY_CHECK(plan.CheckShape("out", out, input->view_shape));
  // ACL_DT_UNDEFINED computes in out's dtype; any other dtype must be out's.
  if (raw_dtype != ACL_DT_UNDEFINED) {
    aclDataType dtype;
    CANOPY_CHECK(CheckDtypeArgument(plan, "dtype", raw_dtype, kCumprodDtypes, dtype));
    if (dtype != out->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dtype' is %s but 'out' has dtype %s", DtypeName(dtype),
                         DtypeName(out->dtype));
    }
  }
  const TensorRef in = plan.Input(input, input_name);
  const TensorRef dst = plan.Output(out, out == input ? input_name : "out");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef src = in.dtype == dst.dtype ? in : plan.Contiguous(in, dst.dtype);
  kernels::DimOpDesc desc;
  desc.kind = kernels::DimOpKind::kCumprod;
  PlanDimOp(plan, desc, src, dst, wrapped, false, false);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanCumprod(Plan& plan, const aclTensor* input, const aclScalar* dim, int raw_dtype, const aclTensor* out) {
  return PlanCumprodOf(plan, "input", input, dim, raw_dtype, out);
}

aclnnStatus PlanInplaceCumprod(Plan& plan, const aclTensor* input_ref, const aclScalar* dim) {
  return PlanCumprodOf(plan, "inputRef", input_ref, dim, ACL_DT_UNDEFINED, input_ref);
}

}  // namespace

CANOPY_ACLNN_OP(
    Cumprod, PlanCumprod,
    (OpTraits{.header = "aclnnop/aclnn_cumprod.h", .dtypes = kCumprodDtypes, .example = "f32[2,4] i32:1 0 f32[2,4]"}),
    (const aclTensor*, input), (const aclScalar*, dim), (aclDataType, dtype), (aclTensor*, out))
CANOPY_ACLNN_OP(
    InplaceCumprod, PlanInplaceCumprod,
    (OpTraits{
        .header = "aclnnop/aclnn_cumprod.h", .dtypes = kCumprodDtypes, .in_place = true, .example = "f32[2,4] i32:1"}),
    (aclTensor*, inputRef), (const aclScalar*, dim))
