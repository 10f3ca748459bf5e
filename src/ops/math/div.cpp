// aclnnDiv, aclnnDivs, aclnnInplaceDiv, aclnnInplaceDivs: out = self / other
// (true division), and the DivMod forms with rounding mode 0 none, 1 trunc, 2 floor.
#include "aclnnop/aclnn_div.h"

#include "binary_arithmetic.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr BinaryArithmetic kDiv{ElementwiseOp::kDiv, /*has_alpha=*/false};

aclnnStatus DivModOp(Plan& plan, int mode, BinaryArithmetic& op) {
  switch (mode) {
    case 0:
      op = {ElementwiseOp::kDiv, false};
      return ACLNN_SUCCESS;
    case 1:
      op = {ElementwiseOp::kDivTrunc, false};
      return ACLNN_SUCCESS;
    case 2:
      op = {ElementwiseOp::kDivFloor, false};
      return ACLNN_SUCCESS;
    default:
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "mode %d is not 0 (true), 1 (trunc) or 2 (floor)", mode);
  }
}

template <typename Operand>
aclnnStatus PlanDivMod(Plan& plan, const aclTensor* self, const Operand* other, int mode, const aclTensor* out,
                       bool in_place) {
  BinaryArithmetic op{};
  CANOPY_CHECK(plan.CheckNotNull(in_place ? "selfRef" : "self", self));
  CANOPY_CHECK(plan.CheckNotNull("other", other));
  CANOPY_CHECK(plan.CheckNotNull(in_place ? "selfRef" : "out", out));
  CANOPY_CHECK(DivModOp(plan, mode, op));
  if (mode != 0 && self != nullptr && other != nullptr) {
    aclDataType other_dtype = other->dtype;
    if (IsComplex(self->dtype) || IsComplex(other_dtype)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "rounding mode %d is not defined for complex operands", mode);
    }
  }
  if constexpr (std::is_same_v<Operand, aclTensor>) {
    return PlanBinaryTensor(plan, op, self, other, nullptr, out, in_place);
  } else {
    return PlanBinaryScalar(plan, op, self, other, nullptr, out, in_place);
  }
}

}  // namespace

extern "C" {

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnDiv", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryTensor(plan, kDiv, self, other, nullptr, out, false); }, self, other, out);
}

aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnDivs", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryScalar(plan, kDiv, self, other, nullptr, out, false); }, self, other, out);
}

aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceDiv", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryTensor(plan, kDiv, selfRef, other, nullptr, selfRef, true); }, selfRef, other);
}

aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceDivs", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryScalar(plan, kDiv, selfRef, other, nullptr, selfRef, true); }, selfRef, other);
}

aclnnStatus aclnnDivModGetWorkspaceSize(const aclTensor* self, const aclTensor* other, int mode, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnDivMod", workspaceSize, executor,
      [&](Plan& plan) { return PlanDivMod(plan, self, other, mode, out, false); }, self, other, mode, out);
}

aclnnStatus aclnnDivModsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, int mode, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnDivMods", workspaceSize, executor,
      [&](Plan& plan) { return PlanDivMod(plan, self, other, mode, out, false); }, self, other, mode, out);
}

aclnnStatus aclnnInplaceDivModGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, int mode,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceDivMod", workspaceSize, executor,
      [&](Plan& plan) { return PlanDivMod(plan, selfRef, other, mode, selfRef, true); }, selfRef, other, mode);
}

aclnnStatus aclnnInplaceDivModsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, int mode,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceDivMods", workspaceSize, executor,
      [&](Plan& plan) { return PlanDivMod(plan, selfRef, other, mode, selfRef, true); }, selfRef, other, mode);
}

}  // extern "C"

CANOPY_ACLNN_PHASE2(Div)
CANOPY_ACLNN_PHASE2(Divs)
CANOPY_ACLNN_PHASE2(InplaceDiv)
CANOPY_ACLNN_PHASE2(InplaceDivs)
CANOPY_ACLNN_PHASE2(DivMod)
CANOPY_ACLNN_PHASE2(DivMods)
CANOPY_ACLNN_PHASE2(InplaceDivMod)
CANOPY_ACLNN_PHASE2(InplaceDivMods)
