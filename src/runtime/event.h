// An event marks a point in a stream. Each aclrtRecordEvent starts a new
// generation; the engine completes it when the stream reaches the record, and
// a wait (on the host or on another stream) waits for the generation that was
// current when the wait was issued, as on hardware.
//
// Records of one event may sit on several streams and complete in any order,
// so completion is tracked per generation: a floor below which every
// generation is done, plus the done generations above it. A wait is satisfied
// by its own record only, never by a later one that happened to finish first.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>

namespace canopy::runtime {

class Event {
 public:
  // `ex_created`: made by aclrtCreateEventExWithFlag, which CANN gives fewer operations.
  explicit Event(uint32_t flags, bool ex_created = false) : flags_(flags), ex_created_(ex_created) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  uint32_t flags() const { return flags_; }
  bool ex_created() const { return ex_created_; }

  // Enqueue side: takes the generation of a new record. Only Stream::Enqueue
  // calls it, under the stream's lock, once the record is sure to be queued:
  // a generation nothing will complete would block every later wait forever.
  uint64_t BeginRecord() { return recorded_.fetch_add(1, std::memory_order_acq_rel) + 1; }
  uint64_t LatestRecord() const { return recorded_.load(std::memory_order_acquire); }

  // Engine side: the stream reached the record of `generation`.
  void Complete(uint64_t generation) { Resolve(generation, /*reached=*/true); }
  // A queued record was dropped (aclrtDestroyStreamForce): it will never be
  // reached, so waits for it end, but it leaves no timestamp.
  void Abandon(uint64_t generation) { Resolve(generation, /*reached=*/false); }
  // Engine side: aclrtResetEvent reached its place in the stream.
  void Reset() { timestamp_ns_.store(0, std::memory_order_release); }

  bool IsComplete(uint64_t generation) const;
  // True once the latest record queued so far has been reached (and trivially when none was).
  bool LatestComplete() const { return IsComplete(LatestRecord()); }
  bool EverCompleted() const { return timestamp_ns_.load(std::memory_order_acquire) != 0; }
  // Steady-clock time at which the newest reached record (highest generation) was
  // reached; 0 if none, or since a reset.
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
  void Resolve(uint64_t generation, bool reached);
  bool IsCompleteLocked(uint64_t generation) const {
    return generation <= floor_.load(std::memory_order_relaxed) || done_above_floor_.contains(generation);
  }

  const uint32_t flags_;
  const bool ex_created_;
  std::atomic<uint64_t> recorded_{0};
  std::atomic<int32_t> references_{1};

  // Every change of the completion state below happens under mutex_, and so
  // does every host waiter's check of it: a waiter either sees the completion
  // or is already waiting when it is notified, whatever the CPU's ordering.
  // floor_ and the size of done_above_floor_ are also readable without the
  // lock (acquire) so that polling stays cheap; the engine, which polls, is
  // woken by Runtime::NotifyAllEngines after the change (a seq_cst signal).
  // Lock order: mutex_ may be taken under a stream's lock (TakeRunnable) and
  // takes no other lock itself.
  mutable std::mutex mutex_;
  std::condition_variable completed_cv_;
  std::atomic<uint64_t> floor_{0};       // every generation <= floor_ is done
  std::set<uint64_t> done_above_floor_;  // done generations > floor_ + 1
  std::atomic<size_t> done_above_floor_count_{0};
  uint64_t timestamp_generation_ = 0;  // the generation timestamp_ns_ belongs to
  std::atomic<int64_t> timestamp_ns_{0};
  int32_t waiters_ = 0;
};

}  // namespace canopy::runtime
