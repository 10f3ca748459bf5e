// Affine (de)quantisation along one axis (AscendQuantV3, AscendAntiQuant). The
// tensor is contiguous, element e at axis index (e / inner) % axis_extent; the
// scale and offset hold one value for every axis index, or one for all.
//   quantise:   y = clamp(round_mode(x * s + offset)),  s = scale (scale^2 in sqrt mode)
//   dequantise: y = (x + offset) * s
// computed in f32. INT8, or INT4 two values a byte with the even element in the
// low nibble (the byte image of INT32 storage holding eight); quantised values
// saturate to the type's range.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

enum class QuantRound { kRint, kCeil, kFloor, kTrunc };  // kRint: half to even (CANN's "round")

struct QuantAffineDesc {
  bool quantise = true;
  aclDataType in_dtype = ACL_FLOAT;  // quantise: f32 / f16 / bf16; dequantise: INT8 or INT4
  aclDataType out_dtype = ACL_INT8;  // quantise: INT8, INT4, UINT8 or INT32 (Quantize); dequantise: f16 / bf16
  int64_t elements = 0, axis_extent = 1, inner = 1;
  BufferRef in, out;
  aclDataType param_dtype = ACL_FLOAT;  // scale and offset: f32 / f16 / bf16
  int64_t param_count = 1;              // 1 or axis_extent
  BufferRef scale;
  bool has_offset = false;
  BufferRef offset;
  bool sqrt_mode = false;
  QuantRound round = QuantRound::kRint;
  bool divide = false;                          // quantise: y = x / s + offset (RmsNormQuant's form)
  bool half_arithmetic = false;                 // quantise: x, s, offset, x * s and the sum each rounded to f16
                                                // (MoeInitRoutingQuant's kernel computes in half)
  aclDataType offset_dtype = ACL_DT_UNDEFINED;  // undefined: param_dtype (RmsNormQuant: INT8)
  // quantise: y = x * (1 / s) + offset in f32 (LayerNormQuant's and GroupNormSiluQuant's kernels
  // multiply by the reciprocal they compute once); a zero s taken as 1 where zero_scale_as_one
  // (LayerNormQuant), else giving infinities.
  bool reciprocal_scale = false;
  bool zero_scale_as_one = false;
  // quantise: the f32 value rounded to f16 before the integer rounding (LayerNormQuant's kernel casts
  // through half).
  bool through_half = false;
  // GroupQuant: rows of axis_extent elements, the scale [groups, axis_extent] with one row per group,
  // picked by `group_index` (INT32 / INT64 cumulative row ends: non-decreasing, in [0, rows], the
  // last rows, else the run fails as CANN's kernel traps); the offset one value.
  int64_t groups = 0;
  BufferRef group_index;
  aclDataType group_dtype = ACL_INT32;
};

std::unique_ptr<Step> MakeQuantAffineStep(const QuantAffineDesc& desc);

}  // namespace canopy::kernels
