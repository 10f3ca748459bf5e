// Nearest-neighbour resampling of a strided view of up to five dims: each
// output element copies the input element at the source indices the caller
// mapped it to, dim by dim (PyTorch's nearest / nearest-exact rules are the
// caller's; any element size, no arithmetic on values).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "nnopbase/executor.h"

namespace canopy::kernels {

constexpr int kNearestMaxRank = 5;

struct NearestResizeDesc {
  BufferRef src, dst;
  int64_t element_bytes = 4;
  std::array<int64_t, kNearestMaxRank> dst_shape{};                   // dims in the view's order (leading 1s pad)
  std::array<int64_t, kNearestMaxRank> src_strides{}, dst_strides{};  // in elements
  // Per dim, per output index: the input's; an empty table maps one to one.
  std::array<std::vector<int64_t>, kNearestMaxRank> source;
};

std::unique_ptr<Step> MakeNearestResizeStep(NearestResizeDesc desc);

}  // namespace canopy::kernels
