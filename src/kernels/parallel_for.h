// ParallelFor: a deterministic split of [0, size) over the calling device
// engine's OpenMP team, shared by every kernel family and the runtime's copies.
//
// * Static: piece i of n is [size * i / n, size * (i + 1) / n), in units of
//   `align`, so the same size on the same thread count splits the same way on
//   every run (results that depend on the split, such as float sums, repeat).
// * Only a device engine forks, and never from inside a team: a team forked
//   anywhere else (a client thread, an OpenMP worker) is a second team in the
//   process, which makes libgomp put idle workers to sleep at once and slows
//   every later fork of the engine's team (runtime/compute_team.h). There the
//   whole range runs on the calling thread. Under ThreadSanitizer nothing forks
//   (runtime/openmp_policy.h).
// * `grain`: ranges shorter than it run on the calling thread, and no piece is
//   given less than about a grain (at::parallel_for's rule).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "canopy/canopy_runtime.h"
#include "runtime/openmp_policy.h"

namespace canopy::kernels {

// How many pieces ParallelFor splits `size` into on this thread (1: no fork).
inline int ParallelPieces(int64_t size, int64_t grain, int64_t align = 1) {
  if (!runtime::kOpenMpAllowed || size < grain || size <= align) return 1;
  if (omp_in_parallel() || canopyOnEngineThread() == 0) return 1;
  const int64_t units = (size + align - 1) / align;
  const int64_t by_grain = (size + grain - 1) / std::max<int64_t>(grain, 1);
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({omp_get_max_threads(), by_grain, units})));
}

// Runs body(begin, end) over pieces covering [0, size) exactly once, piece
// boundaries multiples of `align` (the last piece ends at size).
template <typename Body>
void ParallelFor(int64_t size, int64_t grain, int64_t align, const Body& body) {
  if (size <= 0) return;
  const int pieces = ParallelPieces(size, grain, align);
  if (pieces <= 1) {
    body(int64_t{0}, size);
    return;
  }
  const int64_t units = (size + align - 1) / align;
  canopyPrepareComputeTeam();
#pragma omp parallel num_threads(pieces)
  {
    // The team may be smaller than asked (OMP_THREAD_LIMIT): split over what came.
    const int64_t count = omp_get_num_threads();
    const int64_t id = omp_get_thread_num();
    const int64_t begin = std::min(size, units * id / count * align);
    const int64_t end = std::min(size, units * (id + 1) / count * align);
    if (end > begin) body(begin, end);
  }
}

template <typename Body>
void ParallelFor(int64_t size, int64_t grain, const Body& body) {
  ParallelFor(size, grain, int64_t{1}, body);
}

}  // namespace canopy::kernels
