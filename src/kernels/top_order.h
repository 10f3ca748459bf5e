// The order of top-k selections (torch.topk's): higher values first, NaN above
// every number, ties by the lower index. A strict weak order even with NaN,
// which > alone is not (std::partial_sort's result is undefined without one).
#pragma once

#include <cmath>
#include <cstdint>

namespace canopy::kernels {

// Value va ranks above vb: larger, or NaN over a number.
inline bool TopAbove(float va, float vb) { return (std::isnan(va) && !std::isnan(vb)) || va > vb; }

// Element a (value va) comes before element b (value vb).
inline bool TopBefore(float va, int64_t a, float vb, int64_t b) {
  return TopAbove(va, vb) || (!TopAbove(vb, va) && a < b);
}

}  // namespace canopy::kernels
