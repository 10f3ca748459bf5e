// The recipe shared by Add, Sub, Mul and Div in their tensor, scalar and
// in-place forms: only the arithmetic and a few dtype rules differ per op.
#pragma once

#include "ops/framework/plan.h"

namespace canopy::ops {

struct BinaryArithmetic {
  ElementwiseOp kind;
  bool has_alpha;  // Add and Sub scale `other` by alpha
};

inline constexpr DtypeSet kArithmeticDtypes = {ACL_FLOAT, ACL_FLOAT16,    ACL_DOUBLE,    ACL_INT32,
                                               ACL_INT64, ACL_INT16,      ACL_INT8,      ACL_UINT8,
                                               ACL_BOOL,  ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};

// out = self (op) alpha * other, with other a tensor; `out` may be `self` (in-place).
aclnnStatus PlanBinaryTensor(Plan& plan, BinaryArithmetic op, const aclTensor* self, const aclTensor* other,
                             const aclScalar* alpha, const aclTensor* out, bool in_place);

// out = self (op) alpha * other, with other a scalar; `out` may be `self` (in-place).
aclnnStatus PlanBinaryScalar(Plan& plan, BinaryArithmetic op, const aclTensor* self, const aclScalar* other,
                             const aclScalar* alpha, const aclTensor* out, bool in_place);

// The recipes of the eight prototypes (CANOPY_ACLNN_OP), for arithmetic `kOp`.
template <ElementwiseOp kOp>
aclnnStatus AlphaTensorRecipe(Plan& plan, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                              const aclTensor* out) {
  return PlanBinaryTensor(plan, {kOp, true}, self, other, alpha, out, false);
}
template <ElementwiseOp kOp>
aclnnStatus AlphaScalarRecipe(Plan& plan, const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                              const aclTensor* out) {
  return PlanBinaryScalar(plan, {kOp, true}, self, other, alpha, out, false);
}
template <ElementwiseOp kOp>
aclnnStatus InplaceAlphaTensorRecipe(Plan& plan, const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha) {
  return PlanBinaryTensor(plan, {kOp, true}, self, other, alpha, self, true);
}
template <ElementwiseOp kOp>
aclnnStatus InplaceAlphaScalarRecipe(Plan& plan, const aclTensor* self, const aclScalar* other,
                                     const aclScalar* alpha) {
  return PlanBinaryScalar(plan, {kOp, true}, self, other, alpha, self, true);
}
template <ElementwiseOp kOp>
aclnnStatus TensorRecipe(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensor(plan, {kOp, false}, self, other, nullptr, out, false);
}
template <ElementwiseOp kOp>
aclnnStatus ScalarRecipe(Plan& plan, const aclTensor* self, const aclScalar* other, const aclTensor* out) {
  return PlanBinaryScalar(plan, {kOp, false}, self, other, nullptr, out, false);
}
template <ElementwiseOp kOp>
aclnnStatus InplaceTensorRecipe(Plan& plan, const aclTensor* self, const aclTensor* other) {
  return PlanBinaryTensor(plan, {kOp, false}, self, other, nullptr, self, true);
}
template <ElementwiseOp kOp>
aclnnStatus InplaceScalarRecipe(Plan& plan, const aclTensor* self, const aclScalar* other) {
  return PlanBinaryScalar(plan, {kOp, false}, self, other, nullptr, self, true);
}

}  // namespace canopy::ops
