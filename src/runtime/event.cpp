#include "event.h"

#include <chrono>

#include "runtime.h"
#include "spin_wait.h"

namespace canopy::runtime {

void Event::Complete(uint64_t generation) {
  timestamp_ns_.store(NowNs(), std::memory_order_release);
  uint64_t current = completed_.load(std::memory_order_acquire);
  while (current < generation && !completed_.compare_exchange_weak(current, generation, std::memory_order_acq_rel)) {
  }
  if (waiters_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard lock(mutex_);
    completed_cv_.notify_all();
  }
  // A stream on another device may be waiting for this event.
  Runtime::Get().NotifyAllEngines();
}

void Event::Reset() { timestamp_ns_.store(0, std::memory_order_release); }

bool Event::Wait(uint64_t generation, int64_t timeout_ms) {
  if (IsComplete(generation)) return true;
  if (SpinUntil([&] { return IsComplete(generation); }, kHostSpinNs)) return true;
  std::unique_lock lock(mutex_);
  waiters_.fetch_add(1, std::memory_order_seq_cst);
  const auto done = [&] { return IsComplete(generation); };
  bool completed;
  if (timeout_ms < 0) {
    completed_cv_.wait(lock, done);
    completed = true;
  } else {
    completed = completed_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
  }
  waiters_.fetch_sub(1, std::memory_order_seq_cst);
  return completed;
}

}  // namespace canopy::runtime
