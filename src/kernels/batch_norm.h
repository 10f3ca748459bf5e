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
  ChannelOperand weight, bias;  // absent: 1 and 0
  // Inference reads them; training updates them in place when present: the
  // reads from *_in, the writes to *_out (the same tensor, staged apart by the plan).
  ChannelOperand running_mean_in, running_var_in, running_mean_out, running_var_out;
  ChannelOperand save_mean, save_var;  // training: the batch mean and the biased variance
};

std::unique_ptr<Step> MakeBatchNormStep(const BatchNormDesc& desc);

}  // namespace canopy::kernels
