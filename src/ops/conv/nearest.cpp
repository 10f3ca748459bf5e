#include "nearest.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/dtype.h"
#include "kernels/nearest_resize.h"
#include "ops/framework/tensor_view.h"

namespace canopy::ops {

std::vector<int64_t> NearestSourceIndices(int64_t in, int64_t out, NearestRule rule, double scales) {
  const float scale = scales > 0 ? static_cast<float>(1.0 / scales) : static_cast<float>(in) / static_cast<float>(out);
  const float offset = rule == NearestRule::kExact ? 0.5f : 0.0f;
  std::vector<int64_t> source(static_cast<size_t>(out));
  for (int64_t i = 0; i < out; ++i) {
    // Clamped before the conversion: a tiny scales factor makes the position
    // huge or infinite, which no int64 holds. Output 0 at an infinite scale
    // (0 * inf, NaN) takes source 0, as it does at every finite one.
    float position = std::floor((static_cast<float>(i) + offset) * scale);
    if (std::isnan(position)) position = 0.0f;
    source[static_cast<size_t>(i)] = position < static_cast<float>(in - 1) ? static_cast<int64_t>(position) : in - 1;
  }
  return source;
}

void PlanNearestResize(Plan& plan, const TensorRef& x, const TensorRef& y, std::vector<std::vector<int64_t>> sources) {
  if (y.NumElements() == 0) return;
  const int64_t lead = kernels::kNearestMaxRank - x.rank();  // leading 1s pad the views to five dims
  const TensorRef xs = PadRank(x, kernels::kNearestMaxRank), ys = PadRank(y, kernels::kNearestMaxRank);
  kernels::NearestResizeDesc desc;
  desc.src = xs.buffer;
  desc.dst = ys.buffer;
  desc.element_bytes = static_cast<int64_t>(DtypeSize(x.dtype));
  for (size_t d = 0; d < kernels::kNearestMaxRank; ++d) {
    desc.dst_shape[d] = ys.shape[d];
    desc.src_strides[d] = xs.strides[d];
    desc.dst_strides[d] = ys.strides[d];
  }
  for (size_t d = 0; d < sources.size(); ++d) desc.source[static_cast<size_t>(lead) + d] = std::move(sources[d]);
  plan.AddStep(kernels::MakeNearestResizeStep(std::move(desc)));
}

}  // namespace canopy::ops
