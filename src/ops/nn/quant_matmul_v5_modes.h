// QuantMatmulV5's Atlas A2 modes beside V4's INT8 product (quant_matmul_v5_modes.cpp):
// A8W4 (INT8 x1, INT32-packed INT4 x2; per channel, or per group of 256 along K: the K-G mode),
// K-G A4W4 (INT4 x1 and x2, asymmetric per group) and G-B (INT8 x1 and x2 with per-block scales).
#pragma once

#include "ops/framework/plan.h"

namespace canopy::ops {

struct QuantMatmulV5Args {
  const aclTensor *x1, *x2, *x1_scale, *x2_scale, *y_scale, *x1_offset, *x2_offset, *y_offset, *bias;
  bool transpose_x1, transpose_x2;
  int64_t group_size;
  const aclTensor* out;
};

// CANN's A8W4 test (isA8W4Int): x1 INT8 and x2 INT32, eight INT4 values a word.
inline bool IsQuantMatmulV5A8W4(const QuantMatmulV5Args& a) {
  return a.x1->dtype == ACL_INT8 && a.x2->dtype == ACL_INT32;
}

// CANN's per-block test for INT8 operands (IsA8W8Perblock): both scales FLOAT and of their operand's rank.
inline bool IsQuantMatmulV5PerBlock(const QuantMatmulV5Args& a) {
  return a.x1->dtype == ACL_INT8 && a.x2->dtype == ACL_INT8 && a.x1_scale != nullptr &&
         a.x1_scale->dtype == ACL_FLOAT && a.x2_scale->dtype == ACL_FLOAT && a.x1_scale->rank() == a.x1->rank() &&
         a.x2_scale->rank() == a.x2->rank();
}

// The A8W4 mode, checked in CANN's order (host checks 161001 / 161002, then its tiling's 561002) and planned:
//   out = (sum over groups g of ((x1 - 8) @ x2_g) * x2Scale[g] + yOffset) * x1Scale
aclnnStatus PlanQuantMatmulV5A8W4(Plan& plan, const QuantMatmulV5Args& a);

// The G-B mode: out = sum over K blocks j of (x1_j @ x2_j) * x1Scale[:, j] * x2Scale[n / 128, j] + bias.
aclnnStatus PlanQuantMatmulV5PerBlock(Plan& plan, const QuantMatmulV5Args& a);

// INT4 (or INT32-packed) x1 and x2 with 2-D scales: only the K-G A4W4 mode, FLOAT16 x2Offset per group of 256:
//   out = x1Scale * sum over groups g of (x1_g @ (x2_g - x2Offset[g])) * x2Scale[g]
aclnnStatus PlanQuantMatmulV5A4W4Group(Plan& plan, const QuantMatmulV5Args& a);

}  // namespace canopy::ops
