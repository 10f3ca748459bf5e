// The element types and reduce operations of HCCL, and the reduction loops
// every transport shares. fp16 and bf16 are reduced in float and rounded once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hccl/hccl_types.h"

namespace canopy::hccl {

// Bytes per element; 0 for a type HCCL's data-moving operations do not take.
size_t ElementSize(HcclDataType type);
const char* DataTypeName(HcclDataType type);
const char* ReduceOpName(HcclReduceOp op);

// What CANN documents for the reducing operations on Atlas A2 (Canopy's SoC):
// int8, int16, int32, int64, fp16, fp32, bf16; prod takes neither int16 nor bf16.
bool IsReducibleType(HcclDataType type);
bool IsSupportedReduceOp(HcclDataType type, HcclReduceOp op);

// True for the 16-bit float types, which are reduced in float.
inline bool IsHalfFloat(HcclDataType type) { return type == HCCL_DATA_TYPE_FP16 || type == HCCL_DATA_TYPE_BFP16; }

// dst[i] = op(dst[i], src[i]) for `count` elements of `type` (not the 16-bit floats).
void ReduceInto(HcclDataType type, HcclReduceOp op, void* dst, const void* src, size_t count);
// The same over float elements (the 16-bit float types' accumulator).
void ReduceFloatInto(HcclReduceOp op, float* dst, const float* src, size_t count);
// fp16/bf16 <-> float.
void HalfToFloat(HcclDataType type, const void* src, float* dst, size_t count);
void FloatToHalf(HcclDataType type, const float* src, void* dst, size_t count);

}  // namespace canopy::hccl
