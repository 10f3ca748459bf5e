// The input and output offsets (in elements) of linear index `index` over a
// group of dimensions ordered outermost first: the walk every reduction-style
// kernel (reduce, reduce_dim, reduce_softmax) makes to find a row group.
#pragma once

#include <cstdint>

namespace canopy::kernels {

inline void DimOffsets(int64_t index, int rank, const int64_t* shape, const int64_t* in_strides,
                       const int64_t* out_strides, int64_t& in_offset, int64_t& out_offset) {
  in_offset = out_offset = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const int64_t i = index % shape[d];
    index /= shape[d];
    in_offset += i * in_strides[d];
    out_offset += i * out_strides[d];
  }
}

}  // namespace canopy::kernels
