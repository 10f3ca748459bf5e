// Bulk byte movement for the memcpy/memset family, split across the OpenMP pool
// when large enough to be bandwidth-bound.
#pragma once

#include <cstddef>
#include <cstdint>

namespace canopy::runtime {

void ParallelCopy(void* dst, const void* src, size_t bytes);
void ParallelFill(void* dst, uint8_t value, size_t bytes);
void ParallelCopy2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width, size_t height);

}  // namespace canopy::runtime
