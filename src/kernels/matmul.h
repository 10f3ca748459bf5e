// Matrix multiplication through oneDNN: dst = alpha * (src @ weights) + beta * dst,
// over any number of batch dimensions (extent 1 broadcasts) and strided views.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nnopbase/executor.h"

namespace canopy::kernels {

struct MatmulOperand {
  BufferRef buffer;
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> dims;     // (batch..., rows, cols), same rank for all three operands
  std::vector<int64_t> strides;  // in elements
};

struct MatmulDesc {
  MatmulOperand src;      // (..., M, K)
  MatmulOperand weights;  // (..., K, N)
  MatmulOperand dst;      // (..., M, N)
  float alpha = 1.0f;
  float beta = 0.0f;  // non-zero: accumulate into what dst holds
  // Optional (..., 1, N) row, added before alpha scales (dst = alpha * (src @ weights
  // + bias)) or, with `bias_after_alpha`, after (dst = alpha * (src @ weights) + bias).
  bool has_bias = false;
  bool bias_after_alpha = false;
  MatmulOperand bias;
};

// Dtypes oneDNN multiplies natively on this CPU (f32 always; bf16 where supported).
bool MatmulSupportsDtype(aclDataType dtype);

// Books `bytes` of the call's workspace for a step and says where they are.
using WorkspaceBooking = std::function<BufferRef(int64_t bytes)>;

// The step, or null with `reason` set when oneDNN has no implementation for this
// layout (the caller then makes operands contiguous and asks again). oneDNN's
// scratchpad goes into the workspace through `book`: a cached plan's primitive
// runs on several streams and devices at once, and a primitive's own
// scratchpad would be shared by those runs.
std::unique_ptr<Step> MakeMatmulStep(const MatmulDesc& desc, const WorkspaceBooking& book, std::string& reason);

// The same product of f32 or fp16 src and weights, each dense in its own
// order (row-major, or a weight transposed), computed as the sum of `pairs`
// products of their bf16 pieces (bf16_split.h: 3 for f32, hi*hi + lo*hi +
// hi*lo; 4 for fp16, and lo*lo) into an f32 dst, on oneDNN's bf16 kernel with
// the weight pieces in its blocked layout. The step splits both operands as it
// runs; an operand holding inf or NaN pairs its finite high piece with the
// other's low piece, so inf * y stays inf as in f32.
std::unique_ptr<Step> MakePiecesMatmulStep(const MatmulDesc& desc, int pairs, const WorkspaceBooking& book,
                                           std::string& reason);

}  // namespace canopy::kernels
