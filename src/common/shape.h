// Shape arithmetic shared by the meta API and the planner.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace canopy {

// value / divisor rounded up (value >= 0, divisor > 0): blocks of `divisor` that cover `value`,
// without value + divisor overflowing (any int64 value: a length a client gave).
inline int64_t CeilDiv(int64_t value, int64_t divisor) { return value / divisor + (value % divisor != 0 ? 1 : 0); }

// Row-major strides (in elements) of a dense tensor of `shape`.
inline std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(shape[i], 1);
  }
  return strides;
}

// True when no two elements of the view share an address. Sufficient test:
// ordered by stride, each dimension's stride exceeds the span of all smaller
// ones. Views it cannot prove distinct (a stride 0 on an extent above 1, or
// interleaved dimensions) count as overlapping. Strides must be non-negative.
inline bool ElementsAreDistinct(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  std::vector<size_t> order;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return true;  // no elements at all
    if (shape[i] > 1) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return strides[x] < strides[y]; });
  int64_t span = 0;  // the largest offset reachable with the dimensions seen so far
  for (size_t i : order) {
    if (strides[i] <= span) return false;
    span += strides[i] * (shape[i] - 1);
  }
  return true;
}

}  // namespace canopy
