// MoE finalize routing (MoeFinalizeRouting, MoeFinalizeRoutingV2, MoeTokenUnpermute):
// for each token row i of out [rows, h],
//   out[i, :] = x1[i, :] + x2[i, :]
//             + sum_k scales[i, k] * (expandedX[rowIdx[i + k * rows], :] + bias[expertIdx[i, k], :])
// each term optional (x1, x2, bias zero; scales one). rowIdx values must be in
// [0, expanded rows) and expertIdx values in [0, experts): a value outside
// fails the run (507015, as an NPU kernel's out-of-bounds read would) before
// anything is written. Computed in f32; operands contiguous.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct MoeFinalizeDesc {
  aclDataType dtype = ACL_FLOAT;  // expandedX, x1, x2, bias, scales and out
  int64_t rows = 0, k = 0, h = 0, expanded_rows = 0, experts = 0;
  BufferRef expanded_x, row_index, out;  // row_index: int32 [rows * k]
  bool has_x1 = false, has_x2 = false, has_scales = false, has_bias = false;
  BufferRef x1, x2, scales, bias, expert_index;  // expert_index: int32 [rows, k], with the bias
  const char* op = "";                           // for the error message
  // MoeTokenUnpermute: rowIdx is token-major (slot i * k + j, not i + j * rows),
  // its scales (probs) may have a dtype of their own, and its index has another name.
  bool token_major_index = false;
  aclDataType scales_dtype = ACL_DT_UNDEFINED;  // ACL_DT_UNDEFINED: dtype
  const char* row_index_name = "expandedRowIdx";
  // MoeTokenUnpermuteWithEp: only the slots whose index v is in [window_start, window_end) and whose scale is
  // not 0 add their term, from row v - window_start (which must be below expanded_rows); the others add nothing.
  bool windowed = false;
  int64_t window_start = 0, window_end = 0;
  // MoeFinalizeRoutingV2's drop-and-pad modes: an index of -1 is a dropped slot, whose expandedX term is 0
  // (its bias is still added and scaled, as CANN's kernel does).
  bool drop_pad = false;
  // Above 0: every index must lie in [0, index_extent), checked before the
  // window (MoeTokenUnpermute: positions of the whole permutation, of which
  // those past a permutedTokens cut short by numOutTokens add nothing).
  int64_t index_extent = 0;
};

std::unique_ptr<Step> MakeMoeFinalizeStep(const MoeFinalizeDesc& desc);

}  // namespace canopy::kernels
