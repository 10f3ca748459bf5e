// The grouped product and finalize-routing scatter of GroupedMatmulFinalizeRouting
// (V1 to V3, and the WeightNz forms) as its NPU kernels compute them:
//   y = 0, then rows [shared_offset, shared_offset + shared_rows) of y = shared_weight * shared;
//   for expert e's rows r (the counts of group_list, in order; a count <= 0 has none):
//     A8W4: v[n] = pertoken[r] * logit[r] * (scale[e, n] * sum_k x[r, k] * w[e, k, n]
//                  - 8 * scale[e, n] * sum_k w[e, k, n] + bias[e, n] (+ offset[e, n] * sum_k x[r, k]))
//     A8W8: v[n] = logit[r] * (pertoken[r] * scale[e, n] * sum_k x[r, k] * w[e, k, n] + bias[e, n])
//     y[row_index[r], :] += v
// (the A8W4 kernel splits each int8 x into a high and a low int4 part, the low one shifted
// down by 8, and `bias` is the client's 8 * sum_k w * scale that puts the shift back).
// Without a shared input and logit (A8W8's second form) y is not cleared: each computed
// row's v replaces its target row, the others keep what they held; an absent pertoken,
// logit or A8W8 bias counts as 1, 1 and 0.
// x int8 [m, k]; A8W4: w int4 packed two to a byte, low nibble first, [e, k, n], scale
// int64 words holding an f32 in their low 32 bits, [e, n]; A8W8: w int8 [e, k, n], scale
// f32 [e, n]; the rest f32. Counts adding up past m, or a row_index of a computed row
// outside [0, rows), fail the run before y is written. All operands contiguous; y f32 [rows, n].
#pragma once

#include <cstdint>
#include <memory>

#include "nnopbase/executor.h"

namespace canopy::kernels {

struct GroupedMatmulFinalizeDesc {
  int64_t m = 0, k = 0, n = 0, experts = 0, rows = 0;
  BufferRef x, w, scale, bias, pertoken, group_list, logit, row_index, y;
  bool has_offset = false;
  BufferRef offset;
  int64_t shared_rows = 0, shared_offset = 0;
  float shared_weight = 1.0f;
  BufferRef shared;
  BufferRef weight_scratch;  // int8 [k, n]: one expert's unpacked weight (A8W4)
  bool int8_weight = false;  // A8W8 (see above)
  bool has_pertoken = true, has_logit = true, has_bias = true;
  bool scatter_add = true;  // false: computed rows replace their targets, y is not cleared
  BufferRef values;         // f32 [m, n]: each row's v before the scatter
  const char* op = "";      // for the error messages
};

std::unique_ptr<Step> MakeGroupedMatmulFinalizeStep(const GroupedMatmulFinalizeDesc& desc);

}  // namespace canopy::kernels
