// PyTorch's advanced indexing, self[indices] with a list of index tensors,
// the block Index and IndexPutImpl share. Entry i of the list indexes self's
// next dimension (an int32/int64 tensor, negative values counting from the
// end) or its next mask.rank() dimensions (a bool mask of exactly those
// extents); an entry with no elements leaves its dimension whole, as CANN
// treats an undefined index. The integer entries broadcast together to the
// index shape B; a mask stands for its true positions, a B of one dimension
// whose extent is known only at run time. The result has self's dimensions
// that are not indexed, with B in place of the indexed ones where those are
// adjacent, else in front (PyTorch's rule).
//
// At run time the index values are checked (one outside [-n, n) fails the
// stream task with 507015 and a message, before anything is written) and turned
// into element offsets into self's view, one per position of B; a copy step
// then moves one block of the dimensions not indexed per offset, in B's
// row-major order (duplicates: the last wins, or sums add up in order).
#pragma once

#include <optional>
#include <vector>

#include "gather.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

struct AdvancedIndex {
  Shape index_shape;             // B; a mask's single dimension holds its element count (the most it may select)
  bool masked = false;           // one bool mask gives B (its true count is known at run time)
  int64_t lead = 0;              // the dimensions not indexed that come before B in the result
  std::vector<int64_t> kept;     // self's dimensions not indexed, in order
  std::vector<int64_t> indexed;  // self's dimensions each integer entry indexes (a mask: its first dimension)
  std::vector<int> entries;      // the list positions of the entries that index (not the empty ones)

  // The result's shape for self's shape: kept[:lead] + B + kept[lead:]; a
  // mask's B extent is `selected` (its true count where the caller knows it).
  Shape ResultShape(const Shape& self, int64_t selected) const;
  // `result` (of ResultShape) with B's dimensions first, then the kept ones.
  TensorRef IndexFirst(const TensorRef& result) const;
};

// Checks the list against self (161002 naming the entry) and fills `index`.
// Integer entries are int32 or int64; `list_name` names the argument.
aclnnStatus CheckAdvancedIndex(Plan& plan, const aclTensor* self, const aclTensorList* list, const char* list_name,
                               AdvancedIndex& index);

// Plans the run-time check and the offsets into `self` (int64 [numel(B)]);
// `count` is set to an int64 [1] holding the true count when a mask gives B.
// `sign` says whether negative values count from the end (PyTorch) or fail.
TensorRef PlanIndexOffsets(Plan& plan, const AdvancedIndex& index, const TensorRef& self,
                           const std::vector<TensorRef>& entries, const char* list_name,
                           std::optional<TensorRef>& count, IndexSign sign = IndexSign::kNegativeFromEnd);

enum class BlockCopy : uint8_t { kGather, kScatter, kAccumulate };

// For each position b of B (row-major): gather copies self's block at
// offsets[b] to ordered[b, ...]; scatter copies the other way; accumulate adds
// ordered's block to self's. `ordered` is in IndexFirst's order; with a mask
// its B extent is either 1 (broadcast) or must equal the run-time count, which
// the step checks (a mismatch fails the stream task with a message).
void PlanIndexedBlocks(Plan& plan, BlockCopy kind, const AdvancedIndex& index, const TensorRef& self,
                       const TensorRef& offsets, const std::optional<TensorRef>& count, const TensorRef& ordered);

}  // namespace canopy::ops
