// Short busy-waits before a thread blocks. Sleeping on a futex and being woken
// costs several microseconds on each side (more in a VM), and most waits for a
// small piece of work end sooner than that. The budgets are time, not
// iteration counts, because `pause` costs anywhere from 3 to 140 cycles.
#pragma once

#include <cstdint>
#include <mutex>

#include "runtime.h"

namespace canopy::runtime {

// A host thread waiting for a stream or event polls this long first. Kept
// short: on a machine with more busy threads than cores the spinning thread
// may hold the core the engine needs, so the spin bounds that delay too.
inline constexpr int64_t kHostSpinNs = 5000;
// An idle engine polls this long for new work before it sleeps, covering the
// gap while a client plans and enqueues its next operation.
inline constexpr int64_t kEngineSpinNs = 50000;
// The clock is read once per this many polls.
inline constexpr int kPollsPerClockRead = 32;

// The CPU's hint that this thread is busy-waiting (x86 `pause`, aarch64 `yield`):
// it yields the core's pipeline to a sibling hardware thread.
inline void SpinPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

// Polls `done` for up to `budget_ns`; returns its last value.
template <typename Done>
bool SpinUntil(const Done& done, int64_t budget_ns) {
  const int64_t deadline = NowNs() + budget_ns;
  while (true) {
    for (int poll = 0; poll < kPollsPerClockRead; ++poll) {
      if (done()) return true;
      SpinPause();
    }
    if (NowNs() >= deadline) return done();
  }
}

// Locks `mutex`, retrying for a short while before sleeping on it, for a
// client thread queueing work: the engine holds a stream's lock only to pop a
// task, and a client that sleeps on the futex instead pays a wake-up round
// trip (microseconds in a VM) for a wait of nanoseconds. Spinning on the
// client's side only took an Add's phase 2 from 0.55 to 0.3 us and a tiny
// op's whole cycle from 1.2 to 0.65 us on 2 vCPUs; the engine's own side
// blocks at once, because spinning there as well (or alone) made a burst of
// enqueues 3 to 9 times slower (the engine keeps taking the lock back).
inline void LockSpinningFirst(std::mutex& mutex) {
  // A count, not a time budget: the wait is shorter than a clock read. 64
  // attempts are at most a few microseconds of `pause`, should the holder be
  // preempted.
  constexpr int kAttempts = 64;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    if (mutex.try_lock()) return;
    SpinPause();
  }
  mutex.lock();
}

}  // namespace canopy::runtime
