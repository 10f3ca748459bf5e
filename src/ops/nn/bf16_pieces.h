// Planning products on bf16 matrix units as sums of bf16 pieces
// (kernels/bf16_split.h): which products, and the step that writes an
// operand's pieces into the workspace. Matmul's and Convolution's planners
// share both.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/bf16_split.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

// How many bf16 pieces each operand of a product computed in `compute` is
// split into, or 0: it runs as it is.
//  - f32 under ALLOW_FP32_DOWN_PRECISION (1) or USE_HF32 (3), which let the NPU
//    multiply in HF32: three pieces (bf16x3), more accurate than HF32 and
//    faster than f32 where AMX does bf16 (docs/perf.md, "Matmul on AMX").
//  - fp16 (no fp16 product in oneDNN here): four pieces, the exact fp16
//    products summed in f32, what the NPU's cube computes.
// Only where kernels::Bf16SplitEnabled() and `worthwhile` (the caller's size
// rule; any size when kernels::Bf16SplitForced()).
int Bf16PiecesFor(aclDataType compute, int8_t cube_math_type, bool worthwhile);

// The pieces of `matrix` (dense, f32 or fp16, [batch, rows, cols] in storage
// order) written side by side along its columns (`along_columns`) or stacked
// along its rows, into a bf16 temporary of `shape` (its elements: count x the
// matrix's), by a step the plan runs.
TensorRef PlanBf16Pieces(Plan& plan, const TensorRef& matrix, int64_t batch, int64_t rows, int64_t cols,
                         bool along_columns, const std::vector<kernels::Bf16Piece>& pieces, const Shape& shape);

}  // namespace canopy::ops
