// Products with a weight quantised to INT8 or INT4 (two values a byte, the even
// element in the low nibble, signed): y = x @ ((W + offset) * scale) + bias,
// with one scale (and offset) per group of `group_size` rows of W along K and
// per column. Few rows of x (decode) run fused: each thread dequantises blocks
// of its columns in registers and multiplies them at once, so the weight is
// streamed once in its quantised form. Many rows dequantise W once into a
// dense f32 matrix for a oneDNN product (DequantizeWeight), except where the
// AMX kernel takes them too (QuantFusedTakes): it unpacks each block of
// columns once into a panel that every block of rows multiplies.
#pragma once

#include <memory>

#include "nnopbase/executor.h"

namespace canopy::kernels {

// Rows of x up to which the fused kernel runs (above: dequantise, then oneDNN,
// unless the AMX kernel takes them: QuantFusedTakes).
inline constexpr int64_t kQuantFusedMaxRows = 16;

struct QuantWeight {
  aclDataType dtype = ACL_INT8;  // ACL_INT8 or ACL_INT4
  BufferRef data;                // first element (byte-aligned for INT4)
  // K contiguous (the transposed layout: row n of the stored [n, k] matrix at
  // n * ld) or N contiguous (row k of the stored [k, n] matrix at k * ld); INT4
  // packs along the contiguous axis, and ld is even.
  bool k_contiguous = true;
  int64_t ld = 0;  // elements between stored rows
  int64_t k = 0, n = 0;
  int64_t group_size = 0;  // rows of K per scale row; k for one scale row
  // f32 dense, groups = ceil(k / group_size): [n, groups] when K is contiguous
  // (a column's groups side by side, as its weights are), else [groups, n].
  BufferRef scale;
  BufferRef offset;  // as scale
  bool has_offset = false;
  // Of scale and offset: f32, or, for the fused product of a K-contiguous
  // weight only, f16 / bf16 read where the client's tensors hold them (each
  // thread widens one chunk of columns' scales at a time, in cache, instead
  // of a plan step writing and the product reading an f32 copy of them all).
  aclDataType scale_dtype = ACL_FLOAT;
  int64_t Groups() const { return (k + group_size - 1) / group_size; }
};

struct QuantMatmulDesc {
  QuantWeight w;
  int64_t m = 0;
  BufferRef x;  // f32 dense [m, k]
  // The dtype x's values came from (BF16 or FLOAT16 values are exact in fewer
  // bf16 terms, which the INT4 kernel on AVX-512 BF16 uses).
  aclDataType x_source = ACL_FLOAT;
  BufferRef y;     // f32 dense [m, n]
  BufferRef bias;  // f32 [n]
  bool has_bias = false;
  BufferRef scratch;  // QuantMatmulScratchBytes of workspace
};

// Whether the fused product takes `m` rows of x (whose values came from
// `x_source`) with weight `w`: up to kQuantFusedMaxRows always, any number
// where the AMX kernel serves the weight (it multiplies many rows at the
// tiles' rate, where dequantising for oneDNN runs f16 activations in f32).
bool QuantFusedTakes(const QuantWeight& w, int64_t m, aclDataType x_source);

int64_t QuantMatmulScratchBytes(const QuantMatmulDesc& desc);
std::unique_ptr<Step> MakeQuantMatmulStep(const QuantMatmulDesc& desc);

// Writes the dequantised weight, dense in its storage's orientation ([n, k]
// when K is contiguous, else [k, n]), as f32 or rounded once to bf16 / f16
// (out_dtype).
std::unique_ptr<Step> MakeDequantizeWeightStep(const QuantWeight& w, BufferRef out, aclDataType out_dtype = ACL_FLOAT);

}  // namespace canopy::kernels
