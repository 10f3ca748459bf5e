// aclnnThreshold, aclnnInplaceThreshold: self > threshold ? self : value
// (CANN's formula; NaN is not greater, so it gives value). CANN converts both
// scalars to self's dtype and compares there; the result (self's dtype) is
// cast to out.
#include "aclnnop/aclnn_threshold.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kThresholdDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT32,
                                       ACL_INT8, ACL_UINT8,   ACL_INT16, ACL_INT64};
constexpr UnaryRule kThreshold{
    .op = UnaryOp::kThreshold, .self = kThresholdDtypes, .out = kThresholdDtypes, .inplace = kThresholdDtypes};

UnaryParams ThresholdParams(aclDataType self, const aclScalar* threshold, const aclScalar* value) {
  const ScalarValue t = ScalarIn(*threshold, self), v = ScalarIn(*value, self);
  return UnaryParams{.a = t.real, .b = v.real, .a_integer = t.integer, .b_integer = v.integer};
}

aclnnStatus PlanThreshold(Plan& plan, const aclTensor* self, const aclScalar* threshold, const aclScalar* value,
                          const aclTensor* out) {
  return PlanUnary(
      plan, kThreshold, self, out, ThresholdParams(self->dtype, threshold, value),
      {{"threshold", threshold, ScalarRule::kPromotesWithSelf}, {"value", value, ScalarRule::kPromotesWithSelf}});
}
aclnnStatus PlanInplaceThreshold(Plan& plan, const aclTensor* selfRef, const aclScalar* threshold,
                                 const aclScalar* value) {
  return PlanInplaceUnary(
      plan, kThreshold, selfRef, ThresholdParams(selfRef->dtype, threshold, value),
      {{"threshold", threshold, ScalarRule::kPromotesWithSelf}, {"value", value, ScalarRule::kPromotesWithSelf}});
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_threshold.h", .dtypes = kThresholdDtypes};

}  // namespace

CANOPY_ACLNN_OP(Threshold, PlanThreshold, kTraits, (const aclTensor*, self), (const aclScalar*, threshold),
                (const aclScalar*, value), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceThreshold, PlanInplaceThreshold, InPlace(kTraits), (aclTensor*, selfRef),
                (const aclScalar*, threshold), (const aclScalar*, value))
