// Nearest-neighbour resampling shared by the UpsampleNearest* ops: PyTorch's
// source index rules and the planning of the gather kernel
// (kernels/nearest_resize.h) over a 4-D view.
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

// Plans y = x gathered along dims row_dim and column_dim of 4-D views (the
// other dims map one to one), any element size.
void PlanNearestResize(Plan& plan, const TensorRef& x, const TensorRef& y, int row_dim, int column_dim,
                       std::vector<int64_t> source_row, std::vector<int64_t> source_column);

}  // namespace canopy::ops
