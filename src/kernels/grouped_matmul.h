// Grouped products whose groups a device tensor of cumulative counts defines
// (GroupedMatmulV3's group list), read when the step runs: the rows of x split
// among the weights (M split), or the columns of x and rows of the weight
// split into separate products (K split). Operands are dense f32.
#pragma once

#include <memory>

#include "nnopbase/executor.h"

namespace canopy::kernels {

struct GroupedGemmDesc {
  bool split_k = false;
  int64_t groups = 0, m = 0, k = 0, n = 0;
  BufferRef x;       // [m, k]
  BufferRef weight;  // M split: [groups, k, n]; K split: [k, n]
  BufferRef bias;    // [groups, n] (M split only)
  bool has_bias = false;
  BufferRef y;           // M split: [m, n] (rows past the last group untouched); K split: [groups, m, n]
  BufferRef group_list;  // int64, `groups` values `group_list_stride` elements apart
  int64_t group_list_stride = 1;
  bool counts = false;  // the list holds each group's count (GroupedMatmulV4's groupListType 1), not cumulative ends
};

// Fails the run (ACL_ERROR_RT_AICORE_EXCEPTION, with a message) when the group
// list decreases, is negative or passes the split dimension.
std::unique_ptr<Step> MakeGroupedGemmStep(const GroupedGemmDesc& desc);

}  // namespace canopy::kernels
