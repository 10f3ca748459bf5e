// aclnnDiv, aclnnDivs, aclnnInplaceDiv, aclnnInplaceDivs: out = self / other
// (true division), and the DivMod forms with rounding mode 0 none, 1 trunc, 2 floor.
#include "aclnnop/aclnn_div.h"

#include "binary_arithmetic.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr OpTraits kDiv{.header = "aclnnop/aclnn_div.h", .dtypes = kArithmeticDtypes};

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
  CANOPY_CHECK(DivModOp(plan, mode, op));
  if (mode != 0 && (IsComplex(self->dtype) || IsComplex(other->dtype))) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "rounding mode %d is not defined for complex operands", mode);
  }
  if constexpr (std::is_same_v<Operand, aclTensor>) {
    return PlanBinaryTensor(plan, op, self, other, nullptr, out, in_place);
  } else {
    return PlanBinaryScalar(plan, op, self, other, nullptr, out, in_place);
  }
}

template <typename Operand>
aclnnStatus DivModRecipe(Plan& plan, const aclTensor* self, const Operand* other, int mode, const aclTensor* out) {
  return PlanDivMod(plan, self, other, mode, out, false);
}

template <typename Operand>
aclnnStatus InplaceDivModRecipe(Plan& plan, const aclTensor* self, const Operand* other, int mode) {
  return PlanDivMod(plan, self, other, mode, self, true);
}

}  // namespace

CANOPY_ACLNN_OP(Div, TensorRecipe<ElementwiseOp::kDiv>, kDiv, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(Divs, ScalarRecipe<ElementwiseOp::kDiv>, kDiv, (const aclTensor*, self), (const aclScalar*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceDiv, InplaceTensorRecipe<ElementwiseOp::kDiv>, InPlace(kDiv), (aclTensor*, selfRef),
                (const aclTensor*, other))
CANOPY_ACLNN_OP(InplaceDivs, InplaceScalarRecipe<ElementwiseOp::kDiv>, InPlace(kDiv), (aclTensor*, selfRef),
                (const aclScalar*, other))
CANOPY_ACLNN_OP(DivMod, DivModRecipe<aclTensor>, kDiv, (const aclTensor*, self), (const aclTensor*, other), (int, mode),
                (aclTensor*, out))
CANOPY_ACLNN_OP(DivMods, DivModRecipe<aclScalar>, kDiv, (const aclTensor*, self), (const aclScalar*, other),
                (int, mode), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceDivMod, InplaceDivModRecipe<aclTensor>, InPlace(kDiv), (aclTensor*, selfRef),
                (const aclTensor*, other), (int, mode))
CANOPY_ACLNN_OP(InplaceDivMods, InplaceDivModRecipe<aclScalar>, InPlace(kDiv), (aclTensor*, selfRef),
                (const aclScalar*, other), (int, mode))
