// Row normalisation: RmsNorm, AddRmsNorm, LayerNorm and GroupNorm as one row
// operation. Each of `rows` rows holds `length` elements (a strided run); its
// statistics accumulate in f64 over fixed chunks of the row whose partial sums
// are combined in order, so a long row is split across threads and results never
// depend on the thread count. A row of one chunk is read from memory once (its
// statistics and results are found in cache, reduce_rows.h); a longer one twice.
// LayerNorm's variance sums the deviations from the mean, of each chunk from
// its own mean combined by Chan's formula for longer rows (never E[x^2] - E[x]^2).
#pragma once

#include <cstdint>
#include <memory>

#include "elementwise.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

enum class NormKind : uint8_t {
  kRms,    // y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + eps)
  kLayer,  // y = (x - mean) * rstd * gamma + beta, rstd = 1 / sqrt(var(x) + eps)
};

// A row-shaped operand: element j of row r at (r * row_stride + j * stride)
// elements from the buffer. Per-row statistics use row_stride only; gamma and
// beta use stride only (per channel).
struct NormOperand {
  bool present = false;
  BufferRef buffer;
  aclDataType dtype = ACL_FLOAT;
  int64_t row_stride = 0;
  int64_t stride = 0;
};

struct NormDesc {
  NormKind kind = NormKind::kRms;
  int64_t rows = 0;
  int64_t length = 0;
  double eps = 0;
  // The channel of element j of row r, which indexes gamma and beta:
  // (r % groups) * (length / repeat) + j / repeat. LayerNorm: 1 and 1 (channel j);
  // GroupNorm: group and HxW.
  int64_t groups = 1;
  int64_t repeat = 1;
  NormOperand x;
  NormOperand x2;      // present: the row is x + x2 (AddRmsNorm)
  double x_scale = 1;  // the row is x_scale * x (+ x2), scaled in f32 (DeepNorm's alpha)
  NormOperand sum;     // present: x + x2 is stored here
  NormOperand gamma, beta;
  double gamma_offset = 0;  // y scales by gamma + gamma_offset (GemmaRmsNorm: 1 + gamma)
  // Above 0: y is then swished, y / (1 + exp(-swish_scale * y)) (GroupNormSilu: 1).
  double swish_scale = 0;
  NormOperand y;
  NormOperand y2;  // present: y is stored here too, in this operand's dtype (AddRmsNormCast)
  // Present: y becomes y * (1 + ada_scale) + ada_shift (AdaLayerNorm), element j of row r at
  // ((r / ada_rows) * row_stride + j * stride): one row of them for every `ada_rows` rows of x.
  NormOperand ada_scale, ada_shift;
  int64_t ada_rows = 1;
  NormOperand mean, rstd;  // per row
};

std::unique_ptr<Step> MakeNormStep(const NormDesc& desc);

}  // namespace canopy::kernels
