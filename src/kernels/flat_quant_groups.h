// FlatQuantV3's group list on A2: the kernel quantises only the first quant_k matrices, quant_k being
// the list's last value (type 0, cumulative counts), the sum of its values (type 1) or of its second
// column (type 2, [groups, 2] pairs of index and size), when that lies in (0, matrices); it writes
// zeros to the other matrices' out bytes and quantScale values. This step zeroes them after the full
// computation: out (contiguous, bytes_per_matrix a matrix) and scale (contiguous f32, one a matrix).
#pragma once

#include <cstdint>
#include <memory>

#include "nnopbase/executor.h"

namespace canopy::kernels {

struct FlatQuantGroupsDesc {
  int64_t matrices = 0, bytes_per_matrix = 0;
  int64_t groups = 0, list_type = 0;  // group_list: INT64, [groups] or [groups, 2] (type 2)
  BufferRef group_list, out, scale;
};

std::unique_ptr<Step> MakeFlatQuantGroupsStep(const FlatQuantGroupsDesc& desc);

}  // namespace canopy::kernels
