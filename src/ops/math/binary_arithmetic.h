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

}  // namespace canopy::ops
