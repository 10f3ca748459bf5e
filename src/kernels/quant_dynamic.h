// Per-token symmetric dynamic quantisation (DynamicQuant): for each row of x
// (optionally multiplied by a per-column smooth scale first), scale =
// max|row| / q_max and y = round(row / scale), rounded half to even, with
// q_max 127 for INT8 and 7 for INT4 (two values a byte, the first in the low
// nibble: also the byte image of INT32 storage holding eight). A row of zeros
// gets scale 0 and zeros. Operands are contiguous.
//
// DynamicQuantV2 adds two forms. Asymmetric (an offset per row): scale =
// max((max - min) / (q_max - q_min), 1e-12), offset = q_max - max / scale and
// y = round(row / scale + offset), saturating. Grouped (MoE): the smooth
// scales are [groups, columns] and a list of cumulative row counts (INT32 or
// INT64) picks each row's group: the first g with list[g] > row; a row past
// the list's last count fails the run, as a faulting kernel would.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct DynamicQuantDesc {
  aclDataType x_dtype = ACL_FLOAT16;  // f16 or bf16 (f32: a norm's result, quantised by the fused norms)
  bool int4 = false;                  // y INT4 (or INT32 holding INT4), else INT8
  int64_t rows = 0, columns = 0;
  BufferRef x, y, scale;  // scale: f32, one per row
  bool has_smooth = false;
  BufferRef smooth;                        // one per column
  aclDataType smooth_dtype = ACL_FLOAT16;  // f16 or bf16
  bool asymmetric = false;
  BufferRef offset;  // asymmetric: f32, one per row
  // MoeInitRoutingQuantV2's kernel: y = round(row / scale) in f32, half away from zero (it divides, truncates
  // to half and rounds that away from zero, the same for |y| <= 127); a zero scale gives zeros.
  bool divide_round_away = false;
  int64_t groups = 0;  // > 0: smooth holds one row per group, chosen by group_index
  BufferRef group_index;
  aclDataType group_dtype = ACL_INT32;  // INT32 or INT64
  // > 0: FlatQuant's kernel (symmetric, no smooth): scale = max|row| * clip_ratio / q_max and y =
  // round(row * ((q_max / clip_ratio) / max|row|)), half to even, saturated to [q_min, q_max].
  float clip_ratio = 0.0f;
};

std::unique_ptr<Step> MakeDynamicQuantStep(const DynamicQuantDesc& desc);

}  // namespace canopy::kernels
