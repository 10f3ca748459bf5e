// Rotary position embedding over rows of the last dim D of a rank-4 view:
// y = x * cos + rotate(x) * sin, where rotate depends on the mode (half,
// interleave, quarter, interleave-half; see the op file). cos and sin are
// broadcast over the first three dims (stride 0 where their extent is 1).
// Each row is computed in f32 from any strides; rows are the parallel unit.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

enum class RopeMode : int64_t { kHalf = 0, kInterleave = 1, kQuarter = 2, kInterleaveHalf = 3 };

struct RopeOperand {
  BufferRef buffer;
  int64_t strides[4] = {};  // elements; 0 where broadcast
};

struct RopeDesc {
  RopeMode mode = RopeMode::kHalf;
  aclDataType dtype = ACL_FLOAT;  // every operand's: f32, f16 or bf16
  int64_t shape[4] = {};          // x's and y's
  RopeOperand x, cos, sin, y;
};

std::unique_ptr<Step> MakeRopeStep(const RopeDesc& desc);

// RoPE from a cos/sin cache (RopeWithSinCosCache, vLLM's rotary_embedding):
// for token t, the cache row at positions[t] holds rotary_dim / 2 cos values
// then as many sin values; each head (head_size columns of a [tokens, width]
// row) has its first rotary_dim columns rotated, NeoX style (halves) or GPT-J
// style (pairs), and the rest copied. Multimodal RoPE (`mrope`): positions
// is [3, tokens] and cos/sin element i comes from the row of position set 0,
// 1 or 2 as i falls in section 0, 1 or 2. A position outside [0, cache rows)
// fails the run (507015) before anything is written. Operands are contiguous.
struct RopeCacheOperand {
  BufferRef in, out;
  int64_t width = 0;  // columns of a token's row
};

struct RopeCacheDesc {
  aclDataType dtype = ACL_FLOAT;  // query, key, cache: f32, f16 or bf16
  aclDataType position_dtype = ACL_INT64;
  int64_t tokens = 0, head_size = 0, rotary_dim = 0, cache_rows = 0;
  bool neox = true;
  bool mrope = false;
  int64_t sections[3] = {};
  BufferRef positions, cache;
  RopeCacheOperand query, key;
};

std::unique_ptr<Step> MakeRopeCacheStep(const RopeCacheDesc& desc);

}  // namespace canopy::kernels
