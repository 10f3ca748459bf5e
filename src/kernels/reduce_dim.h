// Operations along one dimension of a strided view: arg-max, cumulative sum and
// argsort. Like softmax (reduce_softmax.h), each line along the dimension is a
// unit of parallel work; when the dimension is not the finest in memory, a tile
// of neighbouring lines walks it together (contiguous loads, no transposing copy).
// Each line is computed serially, so results never depend on the thread count.
#pragma once

#include <cstdint>
#include <memory>

#include "elementwise.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

enum class DimOpKind : uint8_t {
  kArgMax,   // out (int32 / int64): the index of the first largest element, NaN counting as largest
  kCumsum,   // out: running sums in out's dtype (floats accumulate in f64, integers in int64, wrapping)
  kArgsort,  // out (int64): the stable sorting permutation, NaN sorting as largest
};

struct DimOpDesc {
  DimOpKind kind = DimOpKind::kArgMax;
  int rank = 0;
  int dim = 0;  // in [0, rank) (rank 0: one element)
  int64_t shape[kMaxRank] = {};
  StridedOperand in;        // strides per input dimension
  StridedOperand out;       // strides per input dimension (ArgMax: ignored along dim)
  bool descending = false;  // argsort
  bool exclusive = false;   // cumsum: each element left out of its own sum
  bool reverse = false;     // cumsum: from the end of the line
};

std::unique_ptr<Step> MakeDimOpStep(const DimOpDesc& desc);

}  // namespace canopy::kernels
