// The INT8 product and dequantising epilogue every QuantMatmul version plans,
// shared with the ops that fuse it (mc2's QuantMatmulAllReduce family).
#pragma once

#include "ops/framework/plan.h"

namespace canopy::ops {

// x1 [batch..., m, k] @ x2 [batch..., k, n] (INT8, batch dims broadcast; each
// transposed where its flag says), exact in INT32, then
//   out = (acc + bias) * scale [* pertoken]   (INT32 bias)
//   out = acc * scale [* pertoken] + bias     (f16 / bf16 / f32 bias)
// with scale f32, bf16 or UINT64 / INT64 (TransQuantParamV2's f32 in the low
// 32 bits), one value or one per column, pertoken one f32 per row m.
struct QuantProduct {
  TensorRef x1, x2, scale, pertoken, bias, out;  // pertoken and bias where has_*
  int64_t scale_count = 1;                       // 1 or n (the first n of a longer scale)
  bool has_pertoken = false, has_bias = false;
  bool transpose_x1 = false, transpose_x2 = false;
  int64_t m = 0, n = 0, k = 0;
  Shape batch;  // the broadcast batch dims
};

aclnnStatus PlanQuantProduct(Plan& plan, const QuantProduct& p);

// An optional operand registered as an input, or its slot skipped when it is null (an empty ref).
inline TensorRef InputOrSkip(Plan& plan, const aclTensor* t, const char* name) {
  if (t == nullptr) {
    plan.SkipInput();
    return TensorRef{};
  }
  return plan.Input(t, name);
}

// What V3 / V4 call scale, offset and pertokenScaleOptional; V5, QuantMatmulWeightNz and FusedQuantMatmul call
// them x2Scale, x2Offset and x1Scale.
struct QuantArgumentNames {
  const char* scale = "scale";
  const char* offset = "offset";
  const char* pertoken = "pertokenScaleOptional";
};

// The checks of V3 / V4 (CANN's QuantMatmulChecker), shared with V5, QuantMatmulWeightNz and FusedQuantMatmul:
// formats (x2 may be FRACTAL_NZ), dtype combinations and shapes, as 161002 (561003 where Canopy computes no
// such product). Fills `product`'s geometry, scale count and flags; the operands are the caller's to register.
aclnnStatus CheckQuantMatmul(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                             const aclTensor* offset, const aclTensor* pertoken, const aclTensor* bias,
                             bool transpose_x1, bool transpose_x2, const aclTensor* out,
                             const QuantArgumentNames& names, QuantProduct& product);

}  // namespace canopy::ops
