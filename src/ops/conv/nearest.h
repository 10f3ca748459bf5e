// Nearest-neighbour resampling shared by the UpsampleNearest* ops: PyTorch's
// source index rules and the planning of the gather kernel
// (kernels/nearest_resize.h) over views of up to five dims.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/framework/plan.h"

namespace canopy::ops {

enum class NearestRule {
  kFloor,  // nearest: min(floor(dst * scale), in - 1)
  kExact,  // nearest-exact: min(floor((dst + 0.5) * scale), in - 1)
};

// The input index each of `out` output indices reads; scale (in float, as
// PyTorch computes it) 1 / scales when scales > 0, else in / out.
std::vector<int64_t> NearestSourceIndices(int64_t in, int64_t out, NearestRule rule, double scales = 0);

// Plans y = x gathered dim by dim: output index i of dim d reads input index
// sources[d][i] (an empty or missing table: i itself); views of one rank up
// to five, any element size.
void PlanNearestResize(Plan& plan, const TensorRef& x, const TensorRef& y, std::vector<std::vector<int64_t>> sources);

}  // namespace canopy::ops
