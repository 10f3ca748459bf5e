// Batch normalisation per channel of an input viewed as [N, C, S] (S: the
// spatial elements). Training: each channel's mean and biased variance over its
// N x S elements, in f64 and in two passes (never E[x^2] - E[x]^2), normalise
// with them, and (where given) update the running statistics with the momentum,
// the variance taken unbiased there; inference: normalise with the running
// statistics. Each channel is a unit of parallel work computed serially, so
// results never depend on the thread count.
#pragma once

#include <cstdint>
#include <memory>

#include "elementwise.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

// A per-channel vector: element c at c * stride.
struct ChannelOperand {
  bool present = false;
  BufferRef buffer;
  aclDataType dtype = ACL_FLOAT;
  int64_t stride = 1;
};

struct BatchNormDesc {
  bool training = false;
  double momentum = 0.1;
  double eps = 1e-5;
  int64_t n = 0, c = 0, s = 0;
  StridedOperand x, y;          // strides[0..2] for n, c, s
  bool write_y = true;          // false: statistics only (BatchNormStats, BatchNormReduce)
  ChannelOperand weight, bias;  // absent: 1 and 0
  // Inference reads them; training updates them in place when present: the
  // reads from *_in, the writes to *_out (the same tensor, staged apart by the plan).
  ChannelOperand running_mean_in, running_var_in, running_mean_out, running_var_out;
  ChannelOperand save_mean, save_var;        // training: the batch mean and the biased variance
  ChannelOperand save_invstd;                // training: 1 / sqrt(biased variance + eps)
  ChannelOperand save_sum, save_square_sum;  // training: the sums of x and of x^2
  // Inference: the given 1 / sqrt(variance + eps) in place of running_var_in (BatchNormElemt).
  ChannelOperand invstd_in;
};

// The statistics of many batches (SyncBatchNorm's gather step), per channel c of
// `world` rows: each row either a batch's mean and invstd with its element count
// (from_sums false: BatchNormGatherStatsWithCounts) or its sum and sum of squares
// (from_sums true: SyncBatchNormGatherStats). The pooled mean and invstd (the
// biased variance) are written, and the running statistics updated with the
// momentum, the variance taken unbiased there. Computed in f64.
struct BatchNormGatherDesc {
  bool from_sums = false;
  bool truncate_counts = false;  // counts are converted to INT32 first (SyncBatchNormGatherStats)
  int64_t world = 0, c = 0;
  double momentum = 0.1;
  double eps = 1e-5;
  StridedOperand first, second;  // [world, c]: mean and invstd, or sum and sum of squares
  ChannelOperand counts;         // [world]
  ChannelOperand mean_out, invstd_out;
  // Updated in place where present (reads from *_in, writes to *_out); an absent *_in reads 0.
  ChannelOperand running_mean_in, running_var_in, running_mean_out, running_var_out;
};

std::unique_ptr<Step> MakeBatchNormStep(const BatchNormDesc& desc);
std::unique_ptr<Step> MakeBatchNormGatherStep(const BatchNormGatherDesc& desc);

}  // namespace canopy::kernels
