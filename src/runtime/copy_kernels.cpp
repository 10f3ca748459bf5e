#include "copy_kernels.h"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "engine.h"
#include "openmp_policy.h"

namespace canopy::runtime {
namespace {
// Below this a single thread saturates what the copy can gain from more.
constexpr size_t kParallelThresholdBytes = size_t{1} << 20;
constexpr size_t kChunkAlignment = 4096;

// Runs body(begin, end) over [0, count) split into one static chunk per thread.
// Only a device engine forks a team for it (synchronous copies are handed to
// the engine: Engine::RunBetweenTasks). Anywhere else, a copy with no device set
// or one left over when an engine stops, it runs on the calling thread alone: a
// team forked there would be a second OpenMP team in the process, which makes
// libgomp put idle workers to sleep at once and slows every later fork of the
// engine's team (compute_team.h).
template <typename Body>
void ParallelChunks(size_t count, size_t alignment, bool parallel, Body body) {
  const bool may_fork = parallel && kOpenMpAllowed && Engine::CurrentThreadIsEngine();
  const int threads = may_fork ? omp_get_max_threads() : 1;
  if (threads <= 1) {
    body(size_t{0}, count);
    return;
  }
  const size_t chunk = (count / threads + alignment) / alignment * alignment;
  Engine::PrepareComputeTeam();
#pragma omp parallel num_threads(threads)
  {
    const size_t begin = std::min(count, chunk * static_cast<size_t>(omp_get_thread_num()));
    const size_t end = std::min(count, begin + chunk);
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
  ParallelChunks(bytes, kChunkAlignment, bytes >= kParallelThresholdBytes,
                 [&](size_t begin, size_t end) { std::memcpy(d + begin, s + begin, end - begin); });
}

void ParallelFill(void* dst, uint8_t value, size_t bytes) {
  auto* d = static_cast<unsigned char*>(dst);
  ParallelChunks(bytes, kChunkAlignment, bytes >= kParallelThresholdBytes,
                 [&](size_t begin, size_t end) { std::memset(d + begin, value, end - begin); });
}

void ParallelCopy2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width, size_t height) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  // Rows may overlap when source and destination share an allocation: then one
  // thread copies them in order, row by row with memmove.
  if (height == 0) return;
  const size_t dst_span = dst_pitch * (height - 1) + width;
  const size_t src_span = src_pitch * (height - 1) + width;
  const bool overlap = d < s + src_span && s < d + dst_span;
  const bool parallel = !overlap && width * height >= kParallelThresholdBytes;
  ParallelChunks(height, 1, parallel, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) std::memmove(d + row * dst_pitch, s + row * src_pitch, width);
  });
}

}  // namespace canopy::runtime
