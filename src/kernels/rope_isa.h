// The vector rows of rotary position embedding (rope.cpp dispatches; x86-64 only).
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "rope.h"

namespace canopy::kernels {

// Whether RopeRowAvx512 computes rows of `d` elements in `mode`.
bool RopeRowAvx512Takes(RopeMode mode, int64_t d);
// One row of d contiguous elements of dtype (f32, fp16, bf16) in every operand:
// y = x * cos + rotate(x) * sin. Only where Cpu().Avx512() and RopeRowAvx512Takes.
void RopeRowAvx512(RopeMode mode, aclDataType dtype, int64_t d, const void* x, const void* cos, const void* sin,
                   void* y);

}  // namespace canopy::kernels
