// aclnnForeachCopy: out[i] = x[i] converted to out's dtype (FLOAT into FLOAT16 or
// BFLOAT16, FLOAT16 into FLOAT, every other dtype into itself);
// aclnnForeachZeroInplace: every element of every x[i] becomes 0.
#include "aclnnop/aclnn_foreach_copy.h"
#include "aclnnop/aclnn_foreach_zero_inplace.h"
#include "foreach.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCopyDtypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_INT8,  ACL_UINT8,  ACL_INT16,
                                  ACL_UINT16, ACL_INT32,   ACL_UINT32, ACL_INT64, ACL_DOUBLE, ACL_BOOL};
constexpr DtypeSet kZeroDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_INT32};

// The doc's pairs and BFLOAT16 into FLOAT, which CANN's A2 host code and kernel take too.
bool CopyAllowed(aclDataType from, aclDataType to) {
  if (from == to) return true;
  if (from == ACL_FLOAT) return to == ACL_FLOAT16 || to == ACL_BF16;
  return (from == ACL_FLOAT16 || from == ACL_BF16) && to == ACL_FLOAT;
}

aclnnStatus PlanForeachCopy(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  aclDataType x_dtype, out_dtype;
  CANOPY_CHECK(CheckForeachLists(plan, {{"x", x}}, kCopyDtypes, x_dtype));
  CANOPY_CHECK(CheckForeachLists(plan, {{"out", out}}, kCopyDtypes, out_dtype));
  if (x_dtype != ACL_DT_UNDEFINED && out_dtype != ACL_DT_UNDEFINED && !CopyAllowed(x_dtype, out_dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "list 'out' has dtype %s; a list 'x' of dtype %s copies into %s",
                       DtypeName(out_dtype), DtypeName(x_dtype),
                       x_dtype == ACL_FLOAT     ? "FLOAT, FLOAT16 or BFLOAT16"
                       : x_dtype == ACL_FLOAT16 ? "FLOAT16 or FLOAT"
                       : x_dtype == ACL_BF16    ? "BFLOAT16 or FLOAT"
                                                : DtypeName(x_dtype));
  }
  CANOPY_CHECK(CheckForeachShapes(plan, {"x", x}, {"out", out}));
  const std::vector<TensorRef> in = plan.InputList(x, "x");
  const std::vector<TensorRef> dst = plan.OutputList(out, "out");
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].NumElements() != 0) plan.Copy(in[i], dst[i]);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachZeroInplace(Plan& plan, const aclTensorList* x) {
  aclDataType dtype;
  CANOPY_CHECK(CheckForeachLists(plan, {{"x", x}}, kZeroDtypes, dtype));
  plan.InputList(x, "x");  // x is input 0 and output 0; its values are not read
  const std::vector<TensorRef> dst = plan.OutputList(x, "x");
  for (const TensorRef& t : dst) {
    if (t.NumElements() != 0) plan.Fill(t, ScalarValue::Integer(0));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ForeachCopy, PlanForeachCopy,
                (OpTraits{.header = "aclnnop/aclnn_foreach_copy.h",
                          .dtypes = kCopyDtypes,
                          .example = "(f32[2,3],f32[4]) (f16[2,3],f16[4])"}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachZeroInplace, PlanForeachZeroInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_zero_inplace.h",
                          .dtypes = kZeroDtypes,
                          .in_place = true,
                          .example = "(f32[2,3],f32[4])"}),
                (const aclTensorList*, x))
