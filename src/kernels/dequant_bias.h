// DequantBias: an INT32 matmul result [rows, columns] back to f16 / bf16,
// per column times weight_scale and per row times activate_scale (optional),
// with a bias per column (optional) added before the scales when it is INT32
// (in 32-bit integers, wrapping, as the NPU adds) and after them when it is a
// float; computed in f32 and rounded half to even into the output. Operands
// are contiguous.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct DequantBiasDesc {
  int64_t rows = 0, columns = 0;
  BufferRef x, weight_scale, y;
  aclDataType weight_scale_dtype = ACL_FLOAT;  // f32 or bf16
  aclDataType y_dtype = ACL_FLOAT16;           // f16 or bf16
  bool has_activate_scale = false;
  BufferRef activate_scale;  // f32, one per row
  bool has_bias = false;
  BufferRef bias;                      // one per column
  aclDataType bias_dtype = ACL_FLOAT;  // INT32, f32, f16 or bf16
};

std::unique_ptr<Step> MakeDequantBiasStep(const DequantBiasDesc& desc);

// One row of `columns` INT32 values into f32 as DequantBias computes it: `int_bias` (or null)
// added in wrapping 32-bit integers, times `weight_scale` and the row's `activate_scale` (1 for
// none), plus `float_bias` (f32, or null). Shared with the fused ops that dequantise first
// (DequantSwigluQuant).
void DequantiseRow(const int32_t* x, int64_t columns, const float* weight_scale, float activate_scale,
                   const int32_t* int_bias, const float* float_bias, float* out);

}  // namespace canopy::kernels
