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

}  // namespace canopy::ops
