#include "nearest.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/dtype.h"
#include "kernels/nearest_resize.h"

namespace canopy::ops {

std::vector<int64_t> NearestSourceIndices(int64_t in, int64_t out, NearestRule rule, double scales) {
  const float scale = scales > 0 ? static_cast<float>(1.0 / scales) : static_cast<float>(in) / static_cast<float>(out);
  const float offset = rule == NearestRule::kExact ? 0.5f : 0.0f;
  std::vector<int64_t> source(static_cast<size_t>(out));
  for (int64_t i = 0; i < out; ++i) {
    const auto index = static_cast<int64_t>(std::floor((static_cast<float>(i) + offset) * scale));
    source[static_cast<size_t>(i)] = std::min(index, in - 1);
  }
  return source;
}

void PlanNearestResize(Plan& plan, const TensorRef& x, const TensorRef& y, int row_dim, int column_dim,
                       std::vector<int64_t> source_row, std::vector<int64_t> source_column) {
  if (y.NumElements() == 0) return;
  kernels::NearestResizeDesc desc;
  desc.src = x.buffer;
  desc.dst = y.buffer;
  desc.element_bytes = static_cast<int64_t>(DtypeSize(x.dtype));
  for (size_t d = 0; d < 4; ++d) {
    desc.dst_shape[d] = y.shape[d];
    desc.src_strides[d] = x.strides[d];
    desc.dst_strides[d] = y.strides[d];
  }
  desc.row_dim = row_dim;
  desc.column_dim = column_dim;
  desc.source_row = std::move(source_row);
  desc.source_column = std::move(source_column);
  plan.AddStep(kernels::MakeNearestResizeStep(std::move(desc)));
}

}  // namespace canopy::ops
