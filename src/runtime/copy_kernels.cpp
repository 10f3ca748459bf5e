#include "copy_kernels.h"

#include <omp.h>

#include <algorithm>
#include <cstring>

namespace canopy::runtime {
namespace {
// Below this a single thread saturates what the copy can gain from more.
constexpr size_t kParallelThresholdBytes = size_t{1} << 20;
constexpr size_t kChunkAlignment = 4096;

template <typename Body>
void ForChunks(size_t bytes, Body body) {
  const int threads = bytes < kParallelThresholdBytes ? 1 : omp_get_max_threads();
  if (threads <= 1) {
    body(size_t{0}, bytes);
    return;
  }
  const size_t chunk = (bytes / threads + kChunkAlignment - 1) / kChunkAlignment * kChunkAlignment;
#pragma omp parallel num_threads(threads)
  {
    const size_t begin = std::min(bytes, chunk * static_cast<size_t>(omp_get_thread_num()));
    const size_t end = std::min(bytes, begin + chunk);
    if (end > begin) body(begin, end);
  }
}
}  // namespace

void ParallelCopy(void* dst, const void* src, size_t bytes) {
  if (bytes == 0 || dst == src) return;
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  // Overlapping ranges are legal for device-to-device copies: fall back to memmove.
  if (d < s + bytes && s < d + bytes) {
    std::memmove(d, s, bytes);
    return;
  }
  ForChunks(bytes, [&](size_t begin, size_t end) { std::memcpy(d + begin, s + begin, end - begin); });
}

void ParallelFill(void* dst, uint8_t value, size_t bytes) {
  auto* d = static_cast<unsigned char*>(dst);
  ForChunks(bytes, [&](size_t begin, size_t end) { std::memset(d + begin, value, end - begin); });
}

void ParallelCopy2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
                    size_t height) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  const bool parallel = width * height >= kParallelThresholdBytes;
#pragma omp parallel for if (parallel) schedule(static)
  for (size_t row = 0; row < height; ++row) {
    std::memmove(d + row * dst_pitch, s + row * src_pitch, width);
  }
}

}  // namespace canopy::runtime
