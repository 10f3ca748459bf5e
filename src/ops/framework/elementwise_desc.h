// The elementwise kernels' description of an op over TensorRefs: inputs
// broadcast to out's shape, their strides and buffers as the kernels read them.
// Plan's elementwise steps are made from it, and so is any op that hands the
// kernels a list of such descriptions itself (Cat's bit copies).
#pragma once

#include <vector>

#include "kernels/elementwise.h"
#include "tensor_view.h"

namespace canopy::ops {

kernels::ElementwiseDesc ElementwiseDescOf(kernels::ElementwiseOp op, kernels::ComputeType compute,
                                           const std::vector<TensorRef>& inputs, const TensorRef& out,
                                           kernels::ScalarValue alpha, kernels::ScalarValue scalar);

// src copied into dst (same shape; dtypes converted as a Cast would).
kernels::ElementwiseDesc CopyDescOf(const TensorRef& src, const TensorRef& dst);

}  // namespace canopy::ops
