// Matrix multiplication through oneDNN: dst = alpha * (src @ weights) + beta * dst,
// over any number of batch dimensions (extent 1 broadcasts) and strided views.
#pragma once

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
  // Optional (..., 1, N) row added before alpha scales: dst = alpha * (src @ weights + bias).
  bool has_bias = false;
  MatmulOperand bias;
};

// Dtypes oneDNN multiplies natively on this CPU (f32 always; bf16 where supported).
bool MatmulSupportsDtype(aclDataType dtype);

// The step, or null with `reason` set when oneDNN has no implementation for this
// layout (the caller then makes operands contiguous and asks again).
std::unique_ptr<Step> MakeMatmulStep(const MatmulDesc& desc, std::string& reason);

}  // namespace canopy::kernels
