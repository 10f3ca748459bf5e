// An in-order queue of tasks. Any thread may enqueue; the device engine takes
// tasks from the head; host threads wait for everything enqueued so far.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "task.h"

namespace canopy::runtime {

class Engine;
class Context;

// What a host-side wait on a stream found.
struct SyncResult {
  enum class Kind { kDone, kTimeout, kFailed } kind = Kind::kDone;
  int32_t error = 0;
  std::string message;
};

class Stream {
 public:
  Stream(Engine& engine, Context* context, int32_t device_id, uint32_t flags, uint32_t priority);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();

  int32_t device_id() const { return device_id_; }
  Context* context() const { return context_; }
  uint32_t flags() const { return flags_; }
  uint32_t priority() const { return priority_; }
  Engine& engine() const { return engine_; }

  void Enqueue(const Task& task);

  // Host side: waits until everything enqueued before the call has finished.
  SyncResult Synchronize(int64_t timeout_ms);
  // True when everything enqueued so far has finished.
  bool Idle() const;

  // Engine side: takes the head task if it may start now. Event waits that are
  // satisfied are retired on the way; returns false when empty or blocked.
  bool TakeRunnable(Task& task);
  // Engine side: a task taken with TakeRunnable has finished (status 0 = ok).
  void Finish(int32_t status, const char* message);
  // A host callback holds the stream until it returns.
  void HoldForHost();
  void ReleaseFromHost(int32_t status, const char* message);

  // aclrtSubscribeReport: the thread that receives this stream's callbacks (0 = none).
  void set_report_thread(uint64_t thread_id) { report_thread_.store(thread_id); }
  uint64_t report_thread() const { return report_thread_.load(); }

 private:
  void RecordFailure(int32_t status, const char* message);

  Engine& engine_;
  Context* const context_;
  const int32_t device_id_;
  const uint32_t flags_;
  const uint32_t priority_;

  mutable std::mutex mutex_;
  std::deque<Task> queue_;
  bool held_for_host_ = false;
  uint64_t enqueued_ = 0;
  std::atomic<uint64_t> finished_{0};
  std::atomic<uint64_t> report_thread_{0};

  std::atomic<int32_t> waiters_{0};
  std::mutex wait_mutex_;
  std::condition_variable finished_cv_;

  // The first failure since the last synchronisation, reported there.
  std::mutex error_mutex_;
  int32_t sticky_error_ = 0;
  std::string sticky_message_;
};

}  // namespace canopy::runtime
