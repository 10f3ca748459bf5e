#include "tensor_view.h"

#include <algorithm>

namespace canopy::ops {

std::optional<int64_t> NormalizeDim(int64_t dim, int64_t rank) {
  if (dim < -rank || dim >= rank) return std::nullopt;
  return dim < 0 ? dim + rank : dim;
}

TensorRef Permute(const TensorRef& t, const std::vector<int64_t>& order) {
  TensorRef result = t;
  for (size_t i = 0; i < order.size(); ++i) {
    result.shape[i] = t.shape[order[i]];
    result.strides[i] = t.strides[order[i]];
  }
  return result;
}

TensorRef Transpose(const TensorRef& t, int64_t dim0, int64_t dim1) {
  TensorRef result = t;
  std::swap(result.shape[dim0], result.shape[dim1]);
  std::swap(result.strides[dim0], result.strides[dim1]);
  return result;
}

TensorRef Unsqueeze(const TensorRef& t, int64_t position) {
  TensorRef result = t;
  // The new dimension has extent 1, so its stride is free: pick the contiguous one.
  const auto at = static_cast<size_t>(position);
  int64_t stride = 1;
  if (at < t.shape.size()) stride = t.strides[at] * std::max<int64_t>(t.shape[at], 1);
  result.shape.insert(result.shape.begin() + position, 1);
  result.strides.insert(result.strides.begin() + position, stride);
  return result;
}

TensorRef PadRank(const TensorRef& t, int64_t rank) {
  TensorRef padded = t;
  while (padded.rank() < rank) padded = Unsqueeze(padded, 0);
  return padded;
}

TensorRef Squeeze(const TensorRef& t, int64_t dim) {
  TensorRef result = t;
  result.shape.erase(result.shape.begin() + dim);
  result.strides.erase(result.strides.begin() + dim);
  return result;
}

TensorRef SqueezeAll(const TensorRef& t) {
  TensorRef result = t;
  result.shape.clear();
  result.strides.clear();
  for (size_t d = 0; d < t.shape.size(); ++d) {
    if (t.shape[d] == 1) continue;
    result.shape.push_back(t.shape[d]);
    result.strides.push_back(t.strides[d]);
  }
  return result;
}

TensorRef Slice(const TensorRef& t, int64_t dim, int64_t start, int64_t length, int64_t step) {
  TensorRef result = t;
  const auto d = static_cast<size_t>(dim);
  // An empty slice keeps the offset: `start` may then lie past the end.
  if (length > 0) result.buffer.byte_offset += ElementByteOffset(t.dtype, start * t.strides[d]);
  result.shape[d] = length;
  // One element or none: the stride names nothing else, and a huge step would overflow it.
  result.strides[d] = length > 1 ? t.strides[d] * step : t.strides[d];
  return result;
}

TensorRef Narrow(const TensorRef& t, int64_t dim, int64_t start, int64_t length) {
  return Slice(t, dim, start, length, 1);
}

TensorRef Select(const TensorRef& t, int64_t dim, int64_t index) { return Squeeze(Narrow(t, dim, index, 1), dim); }

std::optional<TensorRef> Expand(const TensorRef& t, const Shape& shape) {
  if (shape.size() < t.shape.size()) return std::nullopt;
  const size_t lead = shape.size() - t.shape.size();
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] != 1 && t.shape[i] != shape[lead + i]) return std::nullopt;
  }
  return BroadcastTo(t, shape);
}

// PyTorch's computeStride: walk `t`'s dimensions from the innermost, grouping
// them into chunks that are contiguous with each other; each chunk must be
// covered exactly by consecutive dimensions of the new shape.
std::optional<TensorRef> Reshape(const TensorRef& t, const Shape& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  if (count != t.NumElements()) return std::nullopt;
  TensorRef result = t;
  result.shape = shape;
  if (count == 0 || t.shape.empty()) {
    // No element to address (or a single one): any strides name the same elements.
    result.strides = ContiguousStrides(shape);
    return result;
  }
  result.strides.assign(shape.size(), 0);
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = t.strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = t.rank() - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= t.shape[tensor_d];
    const bool chunk_ends =
        tensor_d == 0 || (t.shape[tensor_d - 1] != 1 && t.strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
      result.strides[view_d] = view_numel * chunk_base_stride;
      view_numel *= shape[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = t.strides[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return result;
}

std::optional<TensorRef> Flatten(const TensorRef& t, int64_t start_dim, int64_t end_dim) {
  if (t.shape.empty()) return Reshape(t, {1});  // a scalar flattens to one element
  Shape shape(t.shape.begin(), t.shape.begin() + start_dim);
  int64_t merged = 1;
  for (int64_t d = start_dim; d <= end_dim; ++d) merged *= t.shape[d];
  shape.push_back(merged);
  shape.insert(shape.end(), t.shape.begin() + end_dim + 1, t.shape.end());
  return Reshape(t, shape);
}

bool SameView(const TensorRef& a, const TensorRef& b) {
  return a.buffer.slot == b.buffer.slot && a.buffer.byte_offset == b.buffer.byte_offset && a.dtype == b.dtype &&
         a.shape == b.shape && a.strides == b.strides;
}

TensorRef InputAs(Plan& plan, const TensorRef& t, const Shape& shape) {
  if (auto view = Reshape(t, shape)) return *view;
  return *Reshape(plan.Contiguous(t, t.dtype), shape);
}

StagedOutput OutputAs(Plan& plan, const TensorRef& t, const Shape& shape) {
  if (auto view = Reshape(t, shape)) return {*view, false};
  return {plan.Temporary(t.dtype, shape), true};
}

}  // namespace canopy::ops
