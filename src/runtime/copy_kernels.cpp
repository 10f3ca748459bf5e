#include "copy_kernels.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/parallel_for.h"

namespace canopy::runtime {
namespace {
// Bytes worth a thread of their own (ParallelFor's grain): a shorter copy runs on one thread.
constexpr int64_t kGrainBytes = int64_t{1} << 18;
// Pieces start on page boundaries.
constexpr int64_t kChunkAlignment = 4096;
}  // namespace

// Only a device engine forks a team for these (kernels::ParallelFor);
// synchronous copies are handed to the engine (Engine::RunBetweenTasks), and a
// copy with no device set or one left over when an engine stops runs on the
// calling thread alone.

void ParallelCopy(void* dst, const void* src, size_t bytes) {
  if (bytes == 0 || dst == src) return;
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  // Overlapping ranges are legal for device-to-device copies: fall back to memmove.
  if (d < s + bytes && s < d + bytes) {
    std::memmove(d, s, bytes);
    return;
  }
  kernels::ParallelFor(static_cast<int64_t>(bytes), kGrainBytes, kChunkAlignment,
                       [&](int64_t begin, int64_t end) { std::memcpy(d + begin, s + begin, end - begin); });
}

void ParallelFill(void* dst, uint8_t value, size_t bytes) {
  auto* d = static_cast<unsigned char*>(dst);
  kernels::ParallelFor(static_cast<int64_t>(bytes), kGrainBytes, kChunkAlignment,
                       [&](int64_t begin, int64_t end) { std::memset(d + begin, value, end - begin); });
}

void ParallelCopy2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width, size_t height) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (height == 0) return;
  const size_t dst_span = dst_pitch * (height - 1) + width;
  const size_t src_span = src_pitch * (height - 1) + width;
  if (d < s + src_span && s < d + dst_span) {
    // Rows that overlap (source and destination share an allocation) copy as
    // one memmove would, every byte read before it is overwritten. With one
    // pitch, a row written clobbers only source rows at or past its own when
    // dst lies above src (before it otherwise), so the rows go last to first
    // (first to last); other pitches go through a staged copy of the source.
    if (dst_pitch == src_pitch) {
      for (size_t k = 0; k < height; ++k) {
        const size_t row = d > s ? height - 1 - k : k;
        std::memmove(d + row * dst_pitch, s + row * src_pitch, width);
      }
      return;
    }
    std::vector<unsigned char> staged(width * height);
    for (size_t row = 0; row < height; ++row) std::memcpy(staged.data() + row * width, s + row * src_pitch, width);
    for (size_t row = 0; row < height; ++row) std::memcpy(d + row * dst_pitch, staged.data() + row * width, width);
    return;
  }
  const int64_t row_grain = (kGrainBytes + width) / std::max<size_t>(width, 1);
  kernels::ParallelFor(static_cast<int64_t>(height), row_grain, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) std::memcpy(d + row * dst_pitch, s + row * src_pitch, width);
  });
}

}  // namespace canopy::runtime
