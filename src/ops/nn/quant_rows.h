// Quantisation of rows, planned once for DynamicQuant and the quantising norms (AdaLayerNormQuant,
// the RmsNorm / AddRmsNorm quant forms, which quantise their f32 result), so that every one of them
// rounds (half to even) and saturates as DynamicQuant does.
#pragma once

#include "kernels/quant_affine.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

// Per-row dynamic quantisation of `rows` ([rows, columns], contiguous, f32 / f16 / bf16), times
// `smooth` (one per column, f16 / bf16) when given: scale = max|row| / q_max into `scale_out` (f32,
// one per row, any shape of that many elements) and out = round(row / scale) into `out` (INT8,
// q_max 127; INT4 or INT32 holding eight INT4, q_max 7; contiguous where INT4). Non-contiguous
// outputs are staged. DynamicQuantV2's forms: with `offset_out` (f32, one per row) the asymmetric
// quantisation; with `group_index` (INT32 / INT64 cumulative row counts) `smooth` holds one row per
// group (kernels/quant_dynamic.h). FlatQuant's form: `clip_ratio` > 0 (kernels/quant_dynamic.h).
void PlanDynamicQuantRows(Plan& plan, const TensorRef& rows, const TensorRef* smooth, const TensorRef& out,
                          const TensorRef& scale_out, const TensorRef* offset_out = nullptr,
                          const TensorRef* group_index = nullptr, float clip_ratio = 0.0f);

// The affine (de)quantisation step (kernels/quant_affine.h) of `desc` over `in`, scale and offset
// (absent: none) made contiguous, into `out` (staged where not contiguous).
void AddAffineStep(Plan& plan, kernels::QuantAffineDesc desc, const TensorRef& in, const TensorRef& scale,
                   const TensorRef* offset, const TensorRef& out);

// Static quantisation of `rows` ([rows, columns], contiguous, f32) with one scale and offset
// (RmsNormQuant: out = round(row / scale + offset), half to even, saturating; NaN gives 0) on
// AscendQuantV3's kernel. out: INT8, or INT4 / INT32 holding eight INT4 (contiguous).
void PlanStaticQuantRows(Plan& plan, const TensorRef& rows, const TensorRef& scale, const TensorRef& offset,
                         const TensorRef& out);

// Quantisation of f32 values as LayerNormQuant's and GroupNormSiluQuant's kernels do it: times the
// reciprocal of the scale (one per axis index, element e's at (e / inner) % axis_extent, or one for
// all; a zero scale taken as 1 where `zero_scale_as_one`), plus the offset when given, cast to f16,
// saturated to INT8, rounded half to even.
void PlanReciprocalQuant(Plan& plan, const TensorRef& values, const TensorRef& scale, const TensorRef* offset,
                         const TensorRef& out, int64_t axis_extent, int64_t inner, bool zero_scale_as_one);

}  // namespace canopy::ops
