// The recipe shared by Matmul, Mm, BatchMatMul and Addmm: checks for
// cubeMathType and dtypes, and the planning of one batched product through
// oneDNN, with conversions, contiguous copies and a staged output only when the
// operands need them.
#pragma once

#include "kernels/matmul.h"
#include "ops/framework/plan.h"
#include "ops/framework/tensor_view.h"

namespace canopy::ops {

inline constexpr DtypeSet kMatmulDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// The view as oneDNN takes it: extent-1 dimensions get dense strides (oneDNN
// reads them, and a view may set them to anything).
kernels::MatmulOperand MatmulOperandOf(const TensorRef& t);

// cubeMathType: 0 keep dtype, 1 allow fp32 down-precision, 2 use fp16, 3 use hf32, 4 fp32 add.
aclnnStatus CheckCubeMathType(Plan& plan, int8_t cube_math_type);

// Checks dtype and extents of one matmul operand (the kit has checked its format).
aclnnStatus CheckMatmulOperand(Plan& plan, const char* name, const aclTensor* tensor);

struct ProductTerms {
  float alpha = 1.0f;
  float beta = 0.0f;
  const TensorRef* bias = nullptr;  // beta * bias is added (broadcast to out); null: none
};

// out = alpha * (a @ b) + beta * bias, where a is (..., M, K), b is (..., K, N) and
// out is (..., M, N) with batch dimensions that broadcast (extent 1).
aclnnStatus PlanProduct(Plan& plan, const TensorRef& a, const TensorRef& b, const TensorRef& out, int8_t cube_math_type,
                        const ProductTerms& terms = {});

}  // namespace canopy::ops
