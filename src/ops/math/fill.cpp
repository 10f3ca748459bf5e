// aclnnInplaceZero and aclnnInplaceFillScalar: every element of selfRef becomes one value.
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kZeroDtypes = {ACL_INT8,   ACL_INT32, ACL_INT64,  ACL_UINT8,      ACL_FLOAT16,   ACL_FLOAT, ACL_BOOL,
                                  ACL_DOUBLE, ACL_INT16, ACL_UINT16, ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};
constexpr DtypeSet kFillDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8,  ACL_INT8,      ACL_INT16,
                                  ACL_INT32, ACL_INT64,   ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128,
                                  ACL_BOOL,  ACL_BF16,    ACL_UINT16, ACL_UINT32,    ACL_UINT64};

aclnnStatus PlanZero(Plan& plan, const aclTensor* self) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kZeroDtypes));
  plan.Input(self, "selfRef");
  plan.Fill(plan.Output(self, "selfRef"), ScalarValue::Integer(0));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanFillScalar(Plan& plan, const aclTensor* self, const aclScalar* value) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kFillDtypes));
  CANOPY_CHECK(plan.CheckDtype("value", value->dtype, kFillDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("selfRef", self->dtype, "value", value->dtype, promoted));
  plan.Input(self, "selfRef");
  plan.Fill(plan.Output(self, "selfRef"), ValueOf(*value));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplaceZero, PlanZero,
                (OpTraits{.header = "aclnnop/aclnn_zero.h", .dtypes = kZeroDtypes, .in_place = true}),
                (aclTensor*, selfRef))
CANOPY_ACLNN_OP(InplaceFillScalar, PlanFillScalar,
                (OpTraits{.header = "aclnnop/aclnn_fill_scalar.h", .dtypes = kFillDtypes, .in_place = true}),
                (aclTensor*, selfRef), (const aclScalar*, value))
