// An event marks a point in a stream. Each aclrtRecordEvent starts a new
// generation; the engine completes it when the stream reaches the record, and
// a wait (on the host or on another stream) waits for the generation that was
// current when the wait was issued, as on hardware.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace canopy::runtime {

class Event {
 public:
  explicit Event(uint32_t flags) : flags_(flags) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  uint32_t flags() const { return flags_; }

  // Enqueue side: a new record was queued; returns its generation.
  uint64_t BeginRecord() { return recorded_.fetch_add(1, std::memory_order_acq_rel) + 1; }
  uint64_t LatestRecord() const { return recorded_.load(std::memory_order_acquire); }

  // Engine side: the stream reached the record of `generation`.
  void Complete(uint64_t generation);
  // Engine side: aclrtResetEvent reached its place in the stream.
  void Reset();

  bool IsComplete(uint64_t generation) const { return completed_.load(std::memory_order_acquire) >= generation; }
  // True once every record queued so far has been reached (and trivially when none was).
  bool AllRecordsComplete() const { return IsComplete(LatestRecord()); }
  bool EverCompleted() const { return timestamp_ns_.load(std::memory_order_acquire) != 0; }
  // Steady-clock time at which the latest completed record was reached; 0 if none.
  int64_t TimestampNs() const { return timestamp_ns_.load(std::memory_order_acquire); }

  // Host wait for `generation`; timeout_ms < 0 waits forever. Returns false on timeout.
  bool Wait(uint64_t generation, int64_t timeout_ms);

  // Tasks that name the event keep it alive until they have run.
  void Retain() { references_.fetch_add(1, std::memory_order_relaxed); }
  void Release() {
    if (references_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

 private:
  ~Event() = default;

  const uint32_t flags_;
  std::atomic<uint64_t> recorded_{0};
  std::atomic<uint64_t> completed_{0};
  std::atomic<int64_t> timestamp_ns_{0};
  std::atomic<int32_t> references_{1};
  std::atomic<int32_t> waiters_{0};
  std::mutex mutex_;
  std::condition_variable completed_cv_;
};

}  // namespace canopy::runtime
