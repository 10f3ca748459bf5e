// Operations along one dimension of a strided view: arg-max / arg-min (with the
// extreme values: MaxDim, MinDim), cumulative sums and products, maxima and minima
// (with their indices), sorting (argsort, sort, top-k) and selecting one element
// of the sorted order (k-th value, median, NaN-ignoring median). Like softmax (reduce_softmax.h), each line along the
// dimension is a unit of parallel work; when the dimension is not the finest in memory, a tile of neighbouring lines
// walks it together (contiguous loads, no transposing copy). Each line is computed serially, so results never depend on
// the thread count.
#pragma once

#include <cstdint>
#include <memory>

#include "elementwise.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

// `out` is the primary output (indices, or Cumsum's sums); `values`, where the
// kind has it, receives the matching elements of self in values' dtype.
enum class DimOpKind : uint8_t {
  kArgMax,   // out (int32 / int64): the index of the first largest element, NaN counting as largest; values: it
  kArgMin,   // the same for the first smallest, NaN counting as smallest
  kCumsum,   // out: running sums in out's dtype (floats accumulate in f64, integers in int64, wrapping)
  kCummax,   // out: the index of the running maximum (ties and NaN take the latest, as PyTorch); values: it
  kCummin,   // the same for the running minimum
  kArgsort,  // out (int64): the stable sorting permutation, NaN sorting as largest; values: the sorted elements
  kTopk,     // as kArgsort, the first `k` of the line only (out and values have extent k along dim)
  kCumprod,  // out: running products in out's dtype (floats multiply in f64, integers in int64, wrapping)
  // Selections (drop the dim, as kArgMax): out (int64) the index, values the element at position `k` of the
  // line's stable ascending order (NaN largest, equal elements by position).
  kKthvalue,
  kMedian,     // position (n - 1) / 2; a line holding NaN gives its first NaN (NaN propagates)
  kNanMedian,  // position (c - 1) / 2 among the line's c numbers; a line of NaN only gives its first NaN
};

struct DimOpDesc {
  DimOpKind kind = DimOpKind::kArgMax;
  int rank = 0;
  int dim = 0;  // in [0, rank) (rank 0: one element)
  int64_t shape[kMaxRank] = {};
  StridedOperand in;        // strides per input dimension
  StridedOperand out;       // strides per input dimension (ArgMax: ignored along dim)
  bool has_values = false;  // `values` is written
  StridedOperand values;    // strides per input dimension, as out's
  bool descending = false;  // argsort, topk (largest)
  int64_t k = 0;            // topk: the count kept; kthvalue: the 0-based position
  bool exclusive = false;   // cumsum: each element left out of its own sum
  bool reverse = false;     // cumsum: from the end of the line
};

std::unique_ptr<Step> MakeDimOpStep(const DimOpDesc& desc);

}  // namespace canopy::kernels
