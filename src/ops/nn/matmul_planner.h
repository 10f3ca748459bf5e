// The recipe shared by the matmul family (Matmul, Mm, BatchMatMul, the Addmm,
// Addbmm, Baddbmm, Addmv and Gemm forms, the WeightNz variants): checks for
// cubeMathType, dtypes, coefficients and the bias, and the planning of one
// batched product through
// oneDNN, with conversions, contiguous copies and a staged output only when the
// operands need them.
#pragma once

#include <initializer_list>
#include <utility>

#include "kernels/matmul.h"
#include "ops/framework/plan.h"
#include "ops/framework/tensor_view.h"

namespace canopy::ops {

inline constexpr DtypeSet kMatmulDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// The operands of BatchMatMulWeightNz and AddmmWeightNz's mat1 and mat2.
inline constexpr DtypeSet kMatmulHalfDtypes = {ACL_FLOAT16, ACL_BF16};

// The view as oneDNN takes it: extent-1 dimensions get dense strides (oneDNN
// reads them, and a view may set them to anything).
kernels::MatmulOperand MatmulOperandOf(const TensorRef& t);

// cubeMathType: 0 keep dtype, 1 allow fp32 down-precision, 2 use fp16, 3 use hf32, 4 fp32 add.
aclnnStatus CheckCubeMathType(Plan& plan, int8_t cube_math_type);

// Checks dtype and extents of one matmul operand (the kit has checked its format).
aclnnStatus CheckMatmulOperand(Plan& plan, const char* name, const aclTensor* tensor);

// beta and alpha of Addmm, Addbmm and Baddbmm: the documents' list plus BF16
// (CANN's code does not check the scalars' dtype, and its arch35 example passes
// BF16 beta and alpha).
inline constexpr DtypeSet kMatmulScaleDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                                ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BF16};

// A coefficient as the product applies it (f32, as CANN's ToFloat()).
float MatmulScaleOf(const aclScalar* scalar);

// Checks beta and alpha against kMatmulScaleDtypes.
aclnnStatus CheckMatmulScales(Plan& plan, const aclScalar* beta, const aclScalar* alpha);

// The bias of an Addmm-like op: `bias` broadcasts to `product` (the product is
// never broadcast to the bias), and `out` has the product's shape.
aclnnStatus CheckBiasAndOut(Plan& plan, const char* bias_name, const aclTensor* bias, const Shape& product,
                            const char* out_name, const aclTensor* out);

// The weight of a *WeightNz op: FRACTAL_NZ (prepared by TransMatmulWeight) or
// ND (Canopy's TransMatmulWeight leaves the descriptor as the client made it,
// where CANN's turns it into NZ), read through its view either way; the other
// tensors must be in a plain format.
aclnnStatus CheckWeightNzFormats(Plan& plan, const char* weight_name, const aclTensor* weight,
                                 std::initializer_list<std::pair<const char*, const aclTensor*>> plain);

// An NZ weight's k and n must both exceed 1 (CANN's NZ products reject them).
aclnnStatus CheckWeightNzExtents(Plan& plan, const char* weight_name, const aclTensor* weight);

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
