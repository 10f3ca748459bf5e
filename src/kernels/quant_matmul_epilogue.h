// The dequantising epilogue of a full-quantisation matmul (QuantMatmulV3/V4):
// from the INT32 product acc[b, m, n] of INT8 operands,
//   out = (acc + bias_i32[n]) * scale[n] * token_scale[m]        (INT32 bias)
//   out = acc * scale[n] * token_scale[m] + bias_f[n]             (float bias)
// each factor optional (scale and token scale one value, or one per column /
// row), computed in f32 and stored in out's dtype (f16 or bf16). acc and out
// are contiguous (batch, m, n); the bias may repeat per batch or not.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct QuantEpilogueDesc {
  int64_t batch = 0, m = 0, n = 0;
  BufferRef acc;  // int32
  aclDataType out_dtype = ACL_BF16;
  BufferRef out;
  // The per-column scale, f32 / bf16 values or UINT64 / INT64 words holding an
  // f32 in their low 32 bits (TransQuantParamV2's encoding); `scale_count` 1 or n.
  aclDataType scale_dtype = ACL_FLOAT;
  BufferRef scale;
  int64_t scale_count = 1;
  bool has_token_scale = false;  // f32, one per row m
  BufferRef token_scale;
  bool has_bias = false;
  aclDataType bias_dtype = ACL_INT32;  // INT32 (added to acc) or f16 / bf16 / f32 (added last)
  BufferRef bias;
  int64_t bias_batch_stride = 0;  // elements between batches' rows (0: one row for all)
};

std::unique_ptr<Step> MakeQuantEpilogueStep(const QuantEpilogueDesc& desc);

}  // namespace canopy::kernels
