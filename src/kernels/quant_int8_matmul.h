// The exact INT8 x INT8 -> INT32 product QuantMatmul falls back on where
// oneDNN's int8 kernels would saturate (CPUs without VNNI sum pairs of
// products in int16): acc[b, i, j] = sum over l of a[b, i, l] * bt[b, j, l],
// a [batch, m, k] and bt (the second operand transposed) [batch, n, k],
// contiguous. Integer sums: exact whatever the order.
#pragma once

#include <cstdint>
#include <memory>

#include "nnopbase/executor.h"

namespace canopy::kernels {

struct Int8MatmulDesc {
  int64_t batch = 0, m = 0, n = 0, k = 0;
  BufferRef a, bt, acc;  // int8, int8, int32
};

std::unique_ptr<Step> MakeInt8MatmulStep(const Int8MatmulDesc& desc);

}  // namespace canopy::kernels
