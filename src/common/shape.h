// Shape arithmetic shared by the meta API and the planner.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace canopy {

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

}  // namespace canopy
