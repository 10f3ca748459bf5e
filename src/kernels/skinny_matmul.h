// Matrix products with few rows (decode and small-batch shapes): C = alpha * A @ B
// + beta * C with A and C in f32 and B read straight from its f32, fp16 or bf16
// storage. At M <= 16 a product is bound by streaming B once; oneDNN 2.6 reaches a
// fraction of the memory bandwidth there and has no fp16 matmul at all on CPUs
// without AVX512-FP16, where the planner would otherwise convert all of B to f32
// on every call. Each output element is summed by one thread in a fixed order, so
// results do not depend on the thread count.
#pragma once

#include <memory>

#include "nnopbase/executor.h"

namespace canopy::kernels {

inline constexpr int64_t kSkinnyMaxRows = 16;

struct SkinnyMatmulDesc {
  int64_t m = 0, n = 0, k = 0;
  BufferRef a;  // f32 [m, k], rows `a_row_stride` elements apart, unit column stride
  int64_t a_row_stride = 0;
  BufferRef b;  // [k, n] in `b_dtype`; one of the two strides is 1
  aclDataType b_dtype = ACL_FLOAT;
  // cubeMathType USE_FP16: each value of an f32 or bf16 B is rounded to fp16
  // as it loads, so B is read where it lies instead of copied to fp16.
  bool b_rounded_to_fp16 = false;
  int64_t b_stride_k = 0, b_stride_n = 0;
  BufferRef c;  // f32 [m, n], rows `c_row_stride` elements apart, unit column stride
  int64_t c_row_stride = 0;
  float alpha = 1.0f;
  float beta = 0.0f;  // non-zero: accumulate onto what C holds
};

// Whether the kernel runs on this CPU and takes B with these strides and dtype.
bool SkinnyMatmulSupports(aclDataType b_dtype, int64_t b_stride_k, int64_t b_stride_n);
// The f32 [m, n] scratch bytes the step needs: partial sums between row blocks of B.
inline int64_t SkinnyMatmulScratchBytes(const SkinnyMatmulDesc& desc) {
  return desc.b_stride_n == 1 ? desc.m * desc.n * static_cast<int64_t>(sizeof(float)) : 0;
}
// `scratch`: SkinnyMatmulScratchBytes of workspace (unused when that is 0).
std::unique_ptr<Step> MakeSkinnyMatmulStep(const SkinnyMatmulDesc& desc, BufferRef scratch);

}  // namespace canopy::kernels
