// An in-order queue of tasks. Any thread may enqueue; the device engine takes
// tasks from the head; host threads wait for everything enqueued so far.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "task.h"
#include "task_queue.h"

namespace canopy::runtime {

class Engine;
class Context;
class HostTaskClaim;

// What a host-side wait on a stream found.
struct SyncResult {
  enum class Kind { kDone, kTimeout, kFailed } kind = Kind::kDone;
  int32_t error = 0;
  std::string message;
};

class Stream {
 public:
  Stream(std::shared_ptr<Engine> engine, Context* context, int32_t device_id, uint32_t flags, uint32_t priority);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();

  int32_t device_id() const { return device_id_; }
  // The context the stream was made in: compare only, it may be gone. Calls
  // that use it look it up by context_handle() (Runtime::FindContext).
  Context* context() const { return context_; }
  aclrtContext context_handle() const { return context_handle_; }
  uint32_t flags() const { return flags_; }
  uint32_t priority() const { return priority_; }
  Engine& engine() const { return *engine_; }
  // A small number naming the stream in traces (its thread id there).
  uint32_t trace_id() const { return trace_id_; }
  // The client's handle (aclrtStream); set once at registration.
  aclrtStream handle() const { return handle_; }
  void set_handle(aclrtStream handle) { handle_ = handle; }

  // False when the stream has been closed (it is being destroyed): the task
  // is not queued and the caller still owns what it holds. An event record
  // takes its generation here, once it is sure to be queued (a refused record
  // takes none); `record_generation`, when given, receives it.
  bool Enqueue(const Task& task, uint64_t* record_generation = nullptr);
  // Queues `tasks` back to back, all or none (false when the stream is closed):
  // no task another thread enqueues lands between them, and a stream closed
  // meanwhile never runs a part of them. A model replay is one unit, as on hardware.
  bool EnqueueAll(const std::vector<Task>& tasks);
  // Runtime-internal work that must follow everything queued so far (deferred
  // frees): queued as usual while the stream is open; once it is closed the task
  // never runs and is released, as DiscardPending's are, when no task of the
  // stream can still be running.
  void EnqueueOrReleaseAfterLastTask(const Task& task);
  // Refuses new work; what is queued still runs.
  void Close();
  // Drops every queued task that has not started (aclrtDestroyStreamForce),
  // blocking callbacks not yet run by their report thread among them.
  void DiscardPending();
  // True once DiscardPending has begun: a blocking callback delivered from now
  // on is dropped instead (ReportRouter checks it under its lock).
  bool discarding() const { return discarding_.load(std::memory_order_acquire); }
  // Releases what DiscardPending dropped; only once no task of the stream runs
  // (after a completed Synchronize), else the destructor does it.
  void ReleaseDiscarded();

  // Host side: waits until everything enqueued before the call has finished.
  // With `consume_error` the first asynchronous failure since the last
  // synchronisation is reported and cleared; internal drains leave it for the client.
  SyncResult Synchronize(int64_t timeout_ms, bool consume_error = true);
  // True when everything enqueued so far has finished.
  bool Idle() const;
  // Tasks enqueued so far, and tasks finished so far (in order): a task is done
  // once FinishedCount() reaches the EnqueuedCount() it was given.
  uint64_t EnqueuedCount() const;
  uint64_t FinishedCount() const { return finished_.load(std::memory_order_acquire); }

  // True when a record of `generation` of `event` is queued and not yet reached.
  bool HasQueuedRecord(const Event* event, uint64_t generation) const;

  // Engine side, without the lock: false when nothing is queued. An enqueue
  // stores the count before it signals the engine, so a stream skipped here
  // is looked at again in the engine's next round.
  bool HasQueued() const { return queued_.load(std::memory_order_seq_cst) != 0; }
  // Engine side: takes the head task if it may start now. Event waits that are
  // satisfied are retired on the way; returns false when empty or blocked.
  bool TakeRunnable(Task& task);
  // Engine side: a task taken with TakeRunnable has finished (status 0 = ok).
  void Finish(int32_t status, const char* message);
  // A host callback holds the stream until it returns.
  void HoldForHost();
  void ReleaseFromHost(int32_t status, const char* message);

  // Host tasks (host_task.h). Queues `task` (false when the stream is closed),
  // or, when nothing is queued or running, starts it at once: the stream is
  // held and `started` is the task's claim, to be handed to the pool.
  bool EnqueueOrStartHostTask(const Task& task, std::shared_ptr<HostTaskClaim>& started);
  // Engine side: holds the stream for its head task, a host task, and returns its claim.
  std::shared_ptr<HostTaskClaim> HoldForHostTask(const Task& task);
  // The started host task's claim for a synchronising thread that waits for
  // the tasks up to `target` (null if none, or if the task comes after them);
  // ForgetHostClaim drops it once a pool thread has claimed it.
  std::shared_ptr<HostTaskClaim> TakeHostClaim(uint64_t target);
  void ForgetHostClaim(const HostTaskClaim* claim);

  // aclrtSubscribeReport: the thread that receives this stream's callbacks (0 = none).
  // Returns false when another thread is already subscribed.
  bool SubscribeReportThread(uint64_t thread_id) {
    uint64_t none = 0;
    return report_thread_.compare_exchange_strong(none, thread_id);
  }
  // Ends the subscription, if any (aclrtUnSubscribeReport, or the stream's
  // destruction: a destroyed stream leaves no subscription behind).
  void EndReportSubscription();
  uint64_t report_thread() const { return report_thread_.load(); }

  // Set by Runtime::RetireStream under its lock; the destructor then tells it.
  void MarkRetired() { retired_.store(true, std::memory_order_release); }

 private:
  void RecordFailure(int32_t status, const char* message);
  void NotifyWaiters();
  // Adds `count` retired tasks and wakes host waiters.
  void MarkFinished(uint64_t count);
  // Resolves the dropped records once `finished` has passed the tasks running at the drop.
  void ResolveDroppedRecords(uint64_t finished);

  const std::shared_ptr<Engine> engine_;  // shared: see Device::shared_engine
  Context* const context_;
  const aclrtContext context_handle_;
  const int32_t device_id_;
  const uint32_t flags_;
  const uint32_t priority_;
  const uint32_t trace_id_;
  aclrtStream handle_ = nullptr;

  mutable std::mutex mutex_;
  TaskQueue queue_;
  std::atomic<size_t> queued_{0};  // queue_.size(), readable without mutex_
  bool held_for_host_ = false;
  std::shared_ptr<HostTaskClaim> host_claim_;  // the started host task, until claimed
  std::vector<Task> discarded_;                // dropped by DiscardPending, released at destruction
  // Event records DiscardPending dropped, resolved (as never reached) only once
  // the tasks still running at the drop have finished, i.e. when finished_
  // reaches abandon_at_: until then a block freed behind the running task
  // (canopyFreeAsync) must not look free to other streams.
  std::vector<std::pair<Event*, uint64_t>> unresolved_records_;  // guarded by mutex_
  uint64_t abandon_at_ = 0;                                      // guarded by mutex_
  std::atomic<bool> has_unresolved_records_{false};
  bool closed_ = false;
  std::atomic<bool> discarding_{false};
  std::atomic<bool> retired_{false};
  uint64_t enqueued_ = 0;
  std::atomic<uint64_t> finished_{0};
  std::atomic<uint64_t> report_thread_{0};

  std::atomic<int32_t> waiters_{0};
  std::mutex wait_mutex_;
  std::condition_variable finished_cv_;
  // What the host threads wait for (guarded by wait_mutex_), and the smallest of
  // it: the engine wakes them only when a target is reached, not after every task.
  std::multiset<uint64_t> wait_targets_;
  std::atomic<uint64_t> wake_at_{~uint64_t{0}};

  // The first failure since the last synchronisation, reported there.
  std::mutex error_mutex_;
  int32_t sticky_error_ = 0;
  std::string sticky_message_;
};

}  // namespace canopy::runtime
