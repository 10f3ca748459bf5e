// aclnnHardtanh, aclnnInplaceHardtanh: min(max(self, clipValueMin), clipValueMax)
// (torch.nn.functional.hardtanh; CANN's ClipByValueV2). Checks as CANN's code
// makes them: self's dtype, the two scalars' dtypes (from self's list: its
// document also lists BOOL, its code rejects it), out of self's dtype and
// shape, then clipValueMin <= clipValueMax. The bounds are converted to
// self's dtype, as CANN does, so integer tensors clamp exactly.
#include "aclnnop/aclnn_hardtanh.h"

#include "ops/math/binary_pointwise.h"
#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHardtanhDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32,  ACL_INT64, ACL_INT16,
                                      ACL_INT8,    ACL_UINT8, ACL_DOUBLE, ACL_BF16};
constexpr UnaryRule kHardtanh{.op = UnaryOp::kHardtanh,
                              .self = kHardtanhDtypes,
                              .out = kHardtanhDtypes,
                              .inplace = kHardtanhDtypes,
                              .out_same_dtype = true};

aclnnStatus CheckBounds(Plan& plan, const char* self_name, const aclTensor* self, const aclScalar* clipValueMin,
                        const aclScalar* clipValueMax) {
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kHardtanhDtypes));
  CANOPY_CHECK(CheckScalarDtype(plan, "clipValueMin", clipValueMin, kHardtanhDtypes));
  return CheckScalarDtype(plan, "clipValueMax", clipValueMax, kHardtanhDtypes);
}

// CANN compares the bounds as int64 when clipValueMin is an integer, else as double.
aclnnStatus CheckOrder(Plan& plan, const aclScalar* clipValueMin, const aclScalar* clipValueMax) {
  const ScalarValue lo = ValueOf(*clipValueMin), hi = ValueOf(*clipValueMax);
  const bool reversed = IsIntegral(clipValueMin->dtype)
                            ? ScalarIn(*clipValueMin, ACL_INT64).integer > ScalarIn(*clipValueMax, ACL_INT64).integer
                            : lo.As<double>() > hi.As<double>();
  if (!reversed) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "clipValueMin (%g) is greater than clipValueMax (%g)", lo.As<double>(),
                     hi.As<double>());
}

UnaryParams Bounds(const aclTensor* self, const aclScalar* clipValueMin, const aclScalar* clipValueMax) {
  const ScalarValue lo = ScalarIn(*clipValueMin, self->dtype), hi = ScalarIn(*clipValueMax, self->dtype);
  return UnaryParams{.a = lo.real, .b = hi.real, .a_integer = lo.integer, .b_integer = hi.integer};
}

aclnnStatus PlanHardtanh(Plan& plan, const aclTensor* self, const aclScalar* clipValueMin,
                         const aclScalar* clipValueMax, const aclTensor* out) {
  CANOPY_CHECK(CheckBounds(plan, "self", self, clipValueMin, clipValueMax));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kHardtanhDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has dtype %s; it must be self's dtype %s",
                       DtypeName(out->dtype), DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  CANOPY_CHECK(CheckOrder(plan, clipValueMin, clipValueMax));
  return PlanUnary(plan, kHardtanh, self, out, Bounds(self, clipValueMin, clipValueMax));
}

aclnnStatus PlanInplaceHardtanh(Plan& plan, const aclTensor* selfRef, const aclScalar* clipValueMin,
                                const aclScalar* clipValueMax) {
  CANOPY_CHECK(CheckBounds(plan, "selfRef", selfRef, clipValueMin, clipValueMax));
  CANOPY_CHECK(CheckOrder(plan, clipValueMin, clipValueMax));
  return PlanInplaceUnary(plan, kHardtanh, selfRef, Bounds(selfRef, clipValueMin, clipValueMax));
}

constexpr OpTraits kTraits{
    .header = "aclnnop/aclnn_hardtanh.h", .dtypes = kHardtanhDtypes, .example = "f32[2,3] f32:-1 f32:1 f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Hardtanh, PlanHardtanh, kTraits, (const aclTensor*, self), (const aclScalar*, clipValueMin),
                (const aclScalar*, clipValueMax), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceHardtanh, PlanInplaceHardtanh, InPlace(kTraits, "f32[2,3] f32:-1 f32:1"), (aclTensor*, selfRef),
                (const aclScalar*, clipValueMin), (const aclScalar*, clipValueMax))
