// aclnnInplaceOne: every element of selfRef becomes 1 (true for BOOL). The
// document also names UINT16, which CANN's code rejects; so does Canopy.
#include "aclnnop/aclnn_ones.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kOneDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT16,  ACL_INT32,
                                 ACL_INT64, ACL_UINT8,   ACL_BOOL, ACL_DOUBLE, ACL_BF16};

aclnnStatus PlanOne(Plan& plan, const aclTensor* selfRef) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, kOneDtypes));
  plan.Input(selfRef, "selfRef");
  plan.Fill(plan.Output(selfRef, "selfRef"), ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplaceOne, PlanOne,
                (OpTraits{
                    .header = "aclnnop/aclnn_ones.h", .dtypes = kOneDtypes, .in_place = true, .example = "f32[2,3]"}),
                (const aclTensor*, selfRef))
