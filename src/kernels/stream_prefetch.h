// Prefetches for one-pass streaming kernels (read one or two arrays, write
// another, element by element). x86-64 only: included by the vector-kernel
// files, which exist only there.
//
// Why: on the Sapphire Rapids class Xeon a plain-store loop that does any work
// per element stalls on its destination, whose lines are fetched for ownership
// on the store's critical path; memcpy and a bare load/store copy keep enough
// misses in flight, a kernel with a few instructions a line does not.
// Prefetching the destination for writing and the source for reading a fixed
// distance ahead (measured stand-alone on two threads, 16M elements): bf16
// sqrt (rsqrt14 and a Newton step) went from 0.73 to 1.0 of memcpy's time,
// bf16 muls from 0.81-0.94 to 1.0, f32 muls from 0.89 to 1.04; DRAM-sized arrays
// and L2-sized ones were not slower. docs/perf.md, "Streaming prefetch".
#pragma once

#include "x86_intrinsics.h"  // <immintrin.h>

#include <cstdint>

namespace canopy::kernels {

// How far ahead of the current element the streams are prefetched: 32 lines,
// enough to cover the latency from the last-level cache at a copy's rate, and
// within the L1's reach (1 KiB measured the same, 4-8 KiB 5-8 % slower).
inline constexpr uintptr_t kStreamPrefetchBytes = 2048;

// The line kStreamPrefetchBytes past `p`, as an address only: it may lie past
// the array, which a prefetch never faults on.
inline const char* StreamAhead(const void* p) {
  return reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(p) + kStreamPrefetchBytes);
}

// Call once per 64 bytes read from `read` (its position now).
inline void PrefetchRead(const void* read) { _mm_prefetch(StreamAhead(read), _MM_HINT_T0); }

// Call once per 64 bytes written to `write` (its position now). prefetchw
// (every AVX-512 CPU has it) takes the line in exclusive state, so the store
// that follows does not wait for ownership. Inline assembly, so that no file
// needs -mprfchw.
inline void PrefetchWrite(const void* write) { asm volatile("prefetchw %0" : : "m"(*StreamAhead(write))); }

}  // namespace canopy::kernels
