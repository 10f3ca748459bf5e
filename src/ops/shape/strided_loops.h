// Loops over strided views shared by the shape family's own steps: offsets of
// every index of two views at once, and an element-size byte copy between views.
#pragma once

#include <cstring>

#include "ops/framework/plan.h"

namespace canopy::ops {

// Calls visit(a, b) with the element offsets in two views of `shape` (strides
// a_strides and b_strides) of every index, in row-major order.
template <typename Visit>
void ForEachOffsetPair(const Shape& shape, const Shape& a_strides, const Shape& b_strides, Visit&& visit) {
  const size_t rank = shape.size();
  for (int64_t extent : shape) {
    if (extent == 0) return;
  }
  int64_t position[kernels::kMaxRank] = {};  // views have at most kMaxRank dimensions
  int64_t a = 0;
  int64_t b = 0;
  while (true) {
    visit(a, b);
    size_t d = rank;
    while (d > 0) {
      --d;
      if (++position[d] < shape[d]) {
        a += a_strides[d];
        b += b_strides[d];
        break;
      }
      a -= a_strides[d] * (shape[d] - 1);
      b -= b_strides[d] * (shape[d] - 1);
      position[d] = 0;
      if (d == 0) return;
    }
    if (rank == 0) return;
  }
}

// Copies a block of `rank` dimensions between two strided views, `bytes` per
// element; runs that are contiguous on both sides move as one memcpy.
inline void CopyBlock(char* dst, const int64_t* dst_strides, const char* src, const int64_t* src_strides,
                      const int64_t* shape, size_t rank, int64_t bytes) {
  if (rank == 0) {
    std::memcpy(dst, src, static_cast<size_t>(bytes));
    return;
  }
  if (rank == 1) {
    if (dst_strides[0] == 1 && src_strides[0] == 1) {
      std::memcpy(dst, src, static_cast<size_t>(shape[0] * bytes));
      return;
    }
    for (int64_t i = 0; i < shape[0]; ++i) {
      std::memcpy(dst + i * dst_strides[0] * bytes, src + i * src_strides[0] * bytes, static_cast<size_t>(bytes));
    }
    return;
  }
  for (int64_t i = 0; i < shape[0]; ++i) {
    CopyBlock(dst + i * dst_strides[0] * bytes, dst_strides + 1, src + i * src_strides[0] * bytes, src_strides + 1,
              shape + 1, rank - 1, bytes);
  }
}

}  // namespace canopy::ops
