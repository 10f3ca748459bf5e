// Resampling and adaptive pooling of the last two axes of a strided
// [planes, H, W] view, as one separable weighted sum: output (y, x) is
//   sum over row taps (r, a) and column taps (c, b) of a * b * in(r, c)
// or, for adaptive max pooling, the maximum of in(r, c) over the taps (NaN
// wins). The ops say what the taps are (bilinear: two per axis with the
// interpolation weights; bicubic: four; adaptive average: the window with
// 1 / its length); the kernel knows nothing of coordinates. Values are
// computed in f32 (f16, bf16, f32 operands) or f64 (f64).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

// Taps of each output index of one axis, CSR style: output i reads
// index[first[i] .. first[i + 1]) with the matching weights.
struct AxisTaps {
  std::vector<int64_t> first = {0};
  std::vector<int64_t> index;
  std::vector<double> weight;
  void Add(int64_t source, double w) {
    index.push_back(source);
    weight.push_back(w);
  }
  void EndOutput() { first.push_back(static_cast<int64_t>(index.size())); }
  int64_t outputs() const { return static_cast<int64_t>(first.size()) - 1; }
};

enum class SeparableReduce { kWeightedSum, kMax };

struct SeparableResampleDesc {
  BufferRef src, dst;
  aclDataType src_dtype = ACL_FLOAT, dst_dtype = ACL_FLOAT;
  int64_t planes = 0;  // N * C
  // Strides in elements: {plane, row, column}. Planes of a [N, C, H, W] view
  // are addressed as n * C + c, so the two plane strides are given apart.
  int64_t channels = 1;                                 // C: plane p is (p / channels, p % channels)
  std::array<int64_t, 4> src_strides{}, dst_strides{};  // {n, c, row, column}
  int64_t src_width = 0;                                // input columns
  AxisTaps rows, columns;
  SeparableReduce reduce = SeparableReduce::kWeightedSum;
  const char* what = "resample";  // for CANOPY_VERBOSE
};

std::unique_ptr<Step> MakeSeparableResampleStep(SeparableResampleDesc desc);

}  // namespace canopy::kernels
