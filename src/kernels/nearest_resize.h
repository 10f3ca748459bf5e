// Nearest-neighbour resampling of two axes of a strided 4-D view: each output
// element copies the input element at the source row and column the caller
// mapped it to (PyTorch's floor(dst * in / out) rule is the caller's; any
// element size, no arithmetic on values).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "nnopbase/executor.h"

namespace canopy::kernels {

struct NearestResizeDesc {
  BufferRef src, dst;
  int64_t element_bytes = 4;
  std::array<int64_t, 4> dst_shape{};                   // dims in the view's order
  std::array<int64_t, 4> src_strides{}, dst_strides{};  // in elements
  int row_dim = 2, column_dim = 3;                      // the resampled dims (the others map 1:1)
  std::vector<int64_t> source_row, source_column;       // per output row / column: the input's
};

std::unique_ptr<Step> MakeNearestResizeStep(NearestResizeDesc desc);

}  // namespace canopy::kernels
