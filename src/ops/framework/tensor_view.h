// View algebra on TensorRef: new views of the same elements, as PyTorch's view
// ops make them (permute, transpose, squeeze/unsqueeze, reshape, slice/narrow,
// select, expand, flatten). Nothing moves: an op that only re-views its input
// plans one strided copy from the view into `out` (Plan::Copy). Dimensions
// given to these functions are already normalised (see NormalizeDim); views
// that cannot be expressed without a copy come back as std::nullopt.
#pragma once

#include <optional>

#include "plan.h"

namespace canopy::ops {

// `dim` in [-rank, rank) as an index in [0, rank); nullopt when out of range.
// Insertion points (unsqueeze) pass rank + 1.
std::optional<int64_t> NormalizeDim(int64_t dim, int64_t rank);

// Dimension `order[i]` of `t` becomes dimension i (`order` is a permutation of 0..rank-1).
TensorRef Permute(const TensorRef& t, const std::vector<int64_t>& order);
TensorRef Transpose(const TensorRef& t, int64_t dim0, int64_t dim1);

// `t` with a new dimension of extent 1 at `position` (in [0, rank]).
TensorRef Unsqueeze(const TensorRef& t, int64_t position);
// Leading extent-1 dimensions until `t` has `rank` dimensions.
TensorRef PadRank(const TensorRef& t, int64_t rank);
// `t` without dimension `dim`, which must have extent 1.
TensorRef Squeeze(const TensorRef& t, int64_t dim);
// `t` without any of its extent-1 dimensions.
TensorRef SqueezeAll(const TensorRef& t);

// Elements start, start + step, ... (`length` of them) of dimension `dim`; step > 0.
TensorRef Slice(const TensorRef& t, int64_t dim, int64_t start, int64_t length, int64_t step = 1);
TensorRef Narrow(const TensorRef& t, int64_t dim, int64_t start, int64_t length);
// Index `index` of dimension `dim`, which disappears.
TensorRef Select(const TensorRef& t, int64_t dim, int64_t index);

// `t` broadcast to `shape` (right-aligned; an extent-1 or new dimension gets
// stride 0); nullopt when the shapes are incompatible.
std::optional<TensorRef> Expand(const TensorRef& t, const Shape& shape);

// The same elements in row-major order as a view of `shape` (same element
// count), when strides can express it: PyTorch's view() rule. nullopt when only
// a copy could (e.g. merging the dimensions of a transposed matrix).
std::optional<TensorRef> Reshape(const TensorRef& t, const Shape& shape);
// Dimensions start_dim..end_dim merged into one, when viewable (see Reshape).
std::optional<TensorRef> Flatten(const TensorRef& t, int64_t start_dim, int64_t end_dim);

// The same view of the same buffer: an op may then treat the two as one operand.
bool SameView(const TensorRef& a, const TensorRef& b);

// An input seen as `shape` (same element count): a view where strides allow, else a contiguous copy.
TensorRef InputAs(Plan& plan, const TensorRef& t, const Shape& shape);

// An output seen as `shape`: a view where strides allow, else a temporary (`copy_back`), which the
// caller copies into the output (seen as `shape`) once it is written.
struct StagedOutput {
  TensorRef view;
  bool copy_back = false;
};
StagedOutput OutputAs(Plan& plan, const TensorRef& t, const Shape& shape);

}  // namespace canopy::ops
