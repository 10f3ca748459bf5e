// The Clamp family (torch.clamp, clamp_min, clamp_max): out = min(max(self,
// min), max) with scalar bounds (Clamp, ClampMin, ClampMax, InplaceClampMax)
// or tensor bounds broadcast with self (ClampTensor, ClampMinTensor,
// ClampMaxTensor and their in-place forms). Where min > max every element is
// max (what CANN's kernel computes); a NaN self or bound gives NaN.
#include "aclnnop/aclnn_clamp.h"

#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The Atlas A2 column: self and out take no BOOL, the bounds do.
constexpr DtypeSet kClampDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                   ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BF16};
constexpr DtypeSet kBoundDtypes = kClampDtypes | DtypeSet{ACL_BOOL};

constexpr BinaryRule BoundRule(PointwiseOp op, const char* bound) {
  return {.op = op,
          .self = kClampDtypes,
          .other = kBoundDtypes,
          .out = kClampDtypes,
          .inplace = kClampDtypes,
          .inplace_other = kBoundDtypes,
          .other_name = bound};
}
constexpr BinaryRule kClampMin = BoundRule(PointwiseOp::kClampMin, "clipValueMin");
constexpr BinaryRule kClampMax = BoundRule(PointwiseOp::kClampMax, "clipValueMax");
constexpr BinaryRule kClampMaxTensor = BoundRule(PointwiseOp::kClampMax, "max");

// The functor for the bounds given: both, the lower or the upper one.
PointwiseOp ClampOp(bool has_min, bool has_max) {
  if (has_min && has_max) return PointwiseOp::kClamp;
  return has_min ? PointwiseOp::kClampMin : PointwiseOp::kClampMax;
}

aclnnStatus RejectNoBound(Plan& plan) {
  return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "at least one of 'clipValueMin' and 'clipValueMax' must not be null");
}

aclnnStatus PlanClamp(Plan& plan, const aclTensor* self, const aclScalar* min, const aclScalar* max,
                      const aclTensor* out) {
  if (min == nullptr && max == nullptr) return RejectNoBound(plan);
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kClampDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kClampDtypes));
  aclDataType promoted = self->dtype;
  for (auto [bound, name] : {std::pair{min, "clipValueMin"}, std::pair{max, "clipValueMax"}}) {
    if (bound == nullptr) continue;
    CANOPY_CHECK(CheckScalarDtype(plan, name, bound, kBoundDtypes));
    CANOPY_CHECK(CheckTensorScalarDtype(plan, "self", promoted, name, bound->dtype, promoted));
  }
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));

  std::vector<PointwiseOperand> operands = {PointwiseOperand::Tensor(plan.Input(self, "self"))};
  for (const aclScalar* bound : {min, max}) {
    if (bound != nullptr) operands.push_back(PointwiseOperand::Scalar(RoundedTo(ValueOf(*bound), promoted)));
  }
  AddPointwise(plan, ClampOp(min != nullptr, max != nullptr), promoted, promoted, operands, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanClampTensor(Plan& plan, const aclTensor* self, const aclTensor* min, const aclTensor* max,
                            const aclTensor* out) {
  if (min == nullptr && max == nullptr) return RejectNoBound(plan);
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kClampDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kClampDtypes));
  aclDataType promoted = self->dtype;
  Shape shape = self->view_shape;
  for (auto [bound, name] : {std::pair{min, "clipValueMin"}, std::pair{max, "clipValueMax"}}) {
    if (bound == nullptr) continue;
    CANOPY_CHECK(plan.CheckDtype(name, bound->dtype, kBoundDtypes));
    CANOPY_CHECK(plan.CheckPromotable("self", promoted, name, bound->dtype, promoted));
    CANOPY_CHECK(plan.CheckBroadcast("self", shape, name, bound->view_shape, shape));
  }
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));

  std::vector<PointwiseOperand> operands = {PointwiseOperand::Tensor(plan.Input(self, "self"))};
  for (auto [bound, name] : {std::pair{min, "clipValueMin"}, std::pair{max, "clipValueMax"}}) {
    if (bound == nullptr) {
      plan.SkipInput();
    } else {
      operands.push_back(PointwiseOperand::Tensor(plan.Input(bound, name)));
    }
  }
  AddPointwise(plan, ClampOp(min != nullptr, max != nullptr), promoted, promoted, operands, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanClampMin(Plan& plan, const aclTensor* self, const aclScalar* min, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kClampMin, self, min, out, false);
}
aclnnStatus PlanClampMax(Plan& plan, const aclTensor* self, const aclScalar* max, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kClampMax, self, max, out, false);
}
aclnnStatus PlanInplaceClampMax(Plan& plan, const aclTensor* selfRef, const aclScalar* max) {
  return PlanBinaryScalarOp(plan, kClampMax, selfRef, max, selfRef, true);
}
aclnnStatus PlanClampMinTensor(Plan& plan, const aclTensor* self, const aclTensor* min, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kClampMin, self, min, out, false);
}
aclnnStatus PlanInplaceClampMinTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* min) {
  return PlanBinaryTensorOp(plan, kClampMin, selfRef, min, selfRef, true);
}
aclnnStatus PlanClampMaxTensor(Plan& plan, const aclTensor* self, const aclTensor* max, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kClampMaxTensor, self, max, out, false);
}
aclnnStatus PlanInplaceClampMaxTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* max) {
  return PlanBinaryTensorOp(plan, kClampMaxTensor, selfRef, max, selfRef, true);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_clamp.h", .dtypes = kClampDtypes};

}  // namespace

CANOPY_ACLNN_OP(Clamp, PlanClamp, kTraits, (const aclTensor*, self), (const aclScalar*, clipValueMin, optional),
                (const aclScalar*, clipValueMax, optional), (aclTensor*, out))
CANOPY_ACLNN_OP(ClampMin, PlanClampMin, kTraits, (const aclTensor*, self), (const aclScalar*, clipValueMin),
                (aclTensor*, out))
CANOPY_ACLNN_OP(ClampMax, PlanClampMax, kTraits, (const aclTensor*, self), (const aclScalar*, clipValueMax),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceClampMax, PlanInplaceClampMax, InPlace(kTraits), (const aclTensor*, selfRef),
                (const aclScalar*, clipValueMax))
CANOPY_ACLNN_OP(ClampTensor, PlanClampTensor, kTraits, (const aclTensor*, self),
                (const aclTensor*, clipValueMin, optional), (const aclTensor*, clipValueMax, optional),
                (aclTensor*, out))
CANOPY_ACLNN_OP(ClampMinTensor, PlanClampMinTensor, kTraits, (const aclTensor*, self), (const aclTensor*, clipValueMin),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceClampMinTensor, PlanInplaceClampMinTensor, InPlace(kTraits), (aclTensor*, selfRef),
                (const aclTensor*, clipValueMin))
CANOPY_ACLNN_OP(ClampMaxTensor, PlanClampMaxTensor, kTraits, (const aclTensor*, self), (const aclTensor*, max),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceClampMaxTensor, PlanInplaceClampMaxTensor, InPlace(kTraits), (aclTensor*, selfRef),
                (const aclTensor*, max))
