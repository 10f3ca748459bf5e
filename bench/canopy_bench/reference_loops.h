// The plain-loop references: an elementwise loop on all OpenMP threads (static
// contiguous ranges, as Canopy splits work) over the same bytes, computing in
// f32 with the CPU's own conversions for f16 (vcvtph2ps / vcvtps2ph) and bf16
// (shift / round-to-nearest-even), 16 lanes at a time where AVX-512 exists.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace canopy_bench {

enum class BinaryOp { kAdd, kSub, kMul, kDiv };

// out = a (op) b over n elements, all of `dtype` (f32, f16 or bf16).
// False when the dtype has no reference loop.
bool PlainBinaryLoop(BinaryOp op, aclDataType dtype, const void* a, const void* b, void* out, int64_t n);

// out = src converted, between f32, f16 and bf16.
bool PlainCastLoop(aclDataType src_dtype, aclDataType dst_dtype, const void* src, void* out, int64_t n);

// Reads `bytes` bytes (a multiple of 8) once with every thread, summing them
// as 64-bit words: the streaming read rate of those bytes. Returns the time in
// microseconds.
double PlainReadLoop(const void* data, size_t bytes);

// Copies `bytes` bytes from src to dst on `threads` OpenMP threads, each one
// memcpy of a contiguous share (or, with first_touch, each thread writes its
// shares of both buffers: the pages then belong to the threads that copy
// them). Returns the time in microseconds.
double PlainCopyLoop(void* src, void* dst, size_t bytes, int threads, bool first_touch);

}  // namespace canopy_bench
