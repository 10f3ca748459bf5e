// Softmax and log-softmax along one dimension of a strided view: row
// operations on the reduction engine's layout rules. Each row (or tile of
// neighbouring rows, when the softmax dim is not the finest in memory) is one
// unit of parallel work, and a long row of f16, bf16 or f32 data splits into
// fixed chunks combined in order, so results never depend on the thread count.
// The row maximum is subtracted before exp (no overflow); sums accumulate in
// f64 (exp itself is f32 for data of f32 or narrower, reduce_rows.h).
#pragma once

#include <memory>

#include "elementwise.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct SoftmaxDesc {
  bool log = false;  // log-softmax: x - max - log(sum(exp(x - max)))
  int rank = 0;
  int dim = 0;  // the softmax dimension, in [0, rank) (rank 0: a single element)
  int64_t shape[kMaxRank] = {};
  StridedOperand in, out;  // f16, bf16, f32 or f64; strides per dimension
};

std::unique_ptr<Step> MakeSoftmaxStep(const SoftmaxDesc& desc);

// Softmax cross-entropy of [rows, classes] logits against labels of the same
// shape: loss[r] = -sum_c labels * log_softmax(features), backprop = softmax -
// labels. Strides are {row, class} (loss: {row}); one row per unit of work, its
// sums in f64.
struct SoftmaxCrossEntropyDesc {
  int64_t rows = 0, classes = 0;
  StridedOperand features, labels, loss, backprop;
};

std::unique_ptr<Step> MakeSoftmaxCrossEntropyStep(const SoftmaxCrossEntropyDesc& desc);

}  // namespace canopy::kernels
