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

}  // namespace canopy::kernels
