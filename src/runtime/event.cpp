#include "event.h"

#include <chrono>

#include "runtime.h"
#include "spin_wait.h"

namespace canopy::runtime {

void Event::Resolve(uint64_t generation, bool reached) {
  const int64_t now = reached ? NowNs() : 0;
  {
    std::lock_guard lock(mutex_);
    if (IsCompleteLocked(generation)) return;  // already resolved
    // The event's time is that of its newest record: an older record finishing
    // later (on a stream that was blocked) must not overwrite it.
    if (reached && generation >= timestamp_generation_) {
      timestamp_generation_ = generation;
      timestamp_ns_.store(now, std::memory_order_release);
    }
    uint64_t floor = floor_.load(std::memory_order_relaxed);
    if (generation == floor + 1) {
      floor = generation;
      while (!done_above_floor_.empty() && *done_above_floor_.begin() == floor + 1) {
        floor = *done_above_floor_.begin();
        done_above_floor_.erase(done_above_floor_.begin());
      }
      floor_.store(floor, std::memory_order_release);
    } else {
      done_above_floor_.insert(generation);
    }
    done_above_floor_count_.store(done_above_floor_.size(), std::memory_order_release);
    if (waiters_ > 0) completed_cv_.notify_all();
  }
  // A stream on any device may be waiting for this event.
  Runtime::Get().NotifyAllEngines();
}

bool Event::IsComplete(uint64_t generation) const {
  if (generation <= floor_.load(std::memory_order_acquire)) return true;
  // In order, the common case: nothing done above the floor, no lock needed.
  if (done_above_floor_count_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(mutex_);
  return IsCompleteLocked(generation);
}

bool Event::Wait(uint64_t generation, int64_t timeout_ms) {
  if (IsComplete(generation)) return true;
  if (SpinUntil([&] { return IsComplete(generation); }, kHostSpinNs)) return true;
  std::unique_lock lock(mutex_);
  ++waiters_;
  const auto done = [&] { return IsCompleteLocked(generation); };
  bool completed;
  if (timeout_ms < 0) {
    completed_cv_.wait(lock, done);
    completed = true;
  } else {
    completed = completed_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
  }
  --waiters_;
  return completed;
}

}  // namespace canopy::runtime
