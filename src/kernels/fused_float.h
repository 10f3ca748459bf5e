// Contiguous elementwise work on f32 / fp16 / bf16 storage done in one register
// pass, 16 lanes at a time: load and widen, compute in f32, round and store.
// The general chunked kernel converts each operand into an L1 buffer, computes,
// then converts back: three passes that leave a memory-bound op compute-bound
// when the storage is 16-bit. The arithmetic and rounding are the same: f32
// operations, round to nearest even, NaN kept quiet, bf16 subnormals kept.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace canopy::kernels {

// The fused loops need AVX-512 F/BW/VL and FMA: callers check
// Cpu().Avx512() (cpu_features.h) first.
// Whether `dtype` is a storage the fused loops read and write.
inline bool IsFusedFloatStorage(aclDataType dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
}

// dst[i] = src[i] converted from `from` to `to` (both fused storages).
void FusedConvert(aclDataType from, const void* src, aclDataType to, void* dst, int64_t n);

enum class FusedBinaryOp : uint8_t { kAdd, kSub, kMul, kDiv };

// out[i] = a[i] + alpha * b[i] (kAdd), a[i] - alpha * b[i] (kSub), a[i] * b[i],
// a[i] / b[i], with every operand in `storage`. With `b` null, b is `b_scalar`.
void FusedBinary(FusedBinaryOp op, aclDataType storage, const void* a, const void* b, float b_scalar, void* out,
                 int64_t n, float alpha);

}  // namespace canopy::kernels
