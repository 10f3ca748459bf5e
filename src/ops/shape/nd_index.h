// The indices tensor of GatherNd and ScatterNd, of shape [B..., c]: each
// position of B holds c coordinates into self's first c dimensions, and picks
// the block of self's remaining dimensions there. That is the advanced index
// of advanced_index.h whose entries are indices' c columns (one integer entry
// per leading dimension, B their shared shape, the result B first), so both
// ops run on its offset and block-copy steps, checked at run time.
#pragma once

#include <vector>

#include "advanced_index.h"
#include "ops/framework/tensor_view.h"

namespace canopy::ops {

// The name the run-time check gives column j: "indices column[j]".
inline constexpr const char* kNdIndexColumns = "indices column";

// The advanced index of `indices_shape` ([B..., c], c <= self_rank) into a self of `self_rank` dimensions.
inline AdvancedIndex NdAdvancedIndex(int64_t self_rank, const Shape& indices_shape) {
  AdvancedIndex index;
  const int64_t columns = indices_shape.back();
  index.index_shape.assign(indices_shape.begin(), indices_shape.end() - 1);
  for (int64_t d = 0; d < self_rank; ++d) {
    if (d < columns) {
      index.indexed.push_back(d);
      index.entries.push_back(static_cast<int>(d));
    } else {
      index.kept.push_back(d);
    }
  }
  return index;  // lead 0: B comes first
}

// indices' columns, views of shape B: column j holds coordinate j of every position.
inline std::vector<TensorRef> NdIndexColumns(const TensorRef& indices) {
  std::vector<TensorRef> columns;
  const int64_t last = indices.rank() - 1;
  for (int64_t j = 0; j < indices.shape[last]; ++j) columns.push_back(Select(indices, last, j));
  return columns;
}

// dst's blocks at `coordinates` ([B..., c]) take (kScatter: the last duplicate
// wins) or gain (kAccumulate) updates[b..., :]; every coordinate is checked
// (non-negative, in range) at run time before dst is written.
inline void PlanNdScatter(Plan& plan, BlockCopy kind, const TensorRef& dst, const TensorRef& coordinates,
                          const TensorRef& updates) {
  const AdvancedIndex index = NdAdvancedIndex(dst.rank(), coordinates.shape);
  std::optional<TensorRef> count;
  const TensorRef offsets =
      PlanIndexOffsets(plan, index, dst, NdIndexColumns(coordinates), kNdIndexColumns, count, IndexSign::kNonNegative);
  PlanIndexedBlocks(plan, kind, index, dst, offsets, count, updates);
}

}  // namespace canopy::ops
