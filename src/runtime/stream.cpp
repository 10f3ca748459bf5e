#include "stream.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>

#include "checker.h"
#include "engine.h"
#include "event.h"
#include "exception_callbacks.h"
#include "host_task.h"
#include "report_router.h"
#include "runtime.h"
#include "spin_wait.h"
#include "trace.h"

namespace canopy::runtime {
namespace {

std::atomic<uint32_t> next_trace_id{1};

// A task that will never run still owns resources (events, executors).
void DropTask(Task& task) {
  if (task.release != nullptr) task.release(task.PayloadPtr());
  if (task.event != nullptr) task.event->Release();
}

}  // namespace

Stream::Stream(std::shared_ptr<Engine> engine, Context* context, int32_t device_id, uint32_t flags, uint32_t priority)
    : engine_(std::move(engine)),
      context_(context),
      context_handle_(context->handle()),
      device_id_(device_id),
      flags_(flags),
      priority_(priority),
      trace_id_(next_trace_id.fetch_add(1, std::memory_order_relaxed)) {}

Stream::~Stream() {
  EndReportSubscription();
  // Nothing of the stream runs any more: resolve what a drop left unresolved.
  ResolveDroppedRecords(~uint64_t{0});
  queue_.ForEach(DropTask);
  for (Task& task : discarded_) DropTask(task);
  if (retired_.load(std::memory_order_acquire)) Runtime::Get().ForgetRetiredStream(this);
}

bool Stream::Enqueue(const Task& task, uint64_t* record_generation) {
  if (Tracer::Enabled()) Tracer::Get().Instant(task.name, "enqueue", {}, NowNs());
  {
    LockSpinningFirst(mutex_);
    std::lock_guard lock(mutex_, std::adopt_lock);
    if (closed_) return false;
    queue_.push_back(task);
    if (task.kind == TaskKind::kEventRecord) {
      const uint64_t generation = task.event->BeginRecord();
      queue_.back().generation = generation;
      if (record_generation != nullptr) *record_generation = generation;
    }
    queued_.store(queue_.size(), std::memory_order_seq_cst);
    ++enqueued_;
  }
  engine_->Notify();
  return true;
}

bool Stream::EnqueueAll(const std::vector<Task>& tasks) {
  if (tasks.empty()) return true;
  if (Tracer::Enabled()) Tracer::Get().Instant(tasks.front().name, "enqueue", {}, NowNs());
  {
    LockSpinningFirst(mutex_);
    std::lock_guard lock(mutex_, std::adopt_lock);
    if (closed_) return false;
    for (const Task& task : tasks) {
      queue_.push_back(task);
      if (task.kind == TaskKind::kEventRecord) queue_.back().generation = task.event->BeginRecord();
    }
    queued_.store(queue_.size(), std::memory_order_seq_cst);
    enqueued_ += tasks.size();
  }
  engine_->Notify();
  return true;
}

void Stream::EnqueueOrReleaseAfterLastTask(const Task& task) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) {
      discarded_.push_back(task);
      return;
    }
  }
  if (!Enqueue(task)) {  // closed in between
    std::lock_guard lock(mutex_);
    discarded_.push_back(task);
  }
}

void Stream::Close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

void Stream::DiscardPending() {
  TaskQueue dropped;
  {
    std::lock_guard lock(mutex_);
    dropped.swap(queue_);
    queued_.store(0, std::memory_order_seq_cst);
    // Set with the queue already empty: whoever sees it and lets the stream go
    // on (a refused callback delivery) finds nothing left to run.
    discarding_.store(true, std::memory_order_release);
  }
  // A blocking callback already handed to a report thread that has not run it
  // has not started either: drop it, or the stream would wait for it forever.
  ReportRouter::Get().DropBlockedReports(*this);
  if (dropped.empty()) return;
  // What the dropped tasks own (deferred frees among it) is released only once no
  // task of this stream can still be running: in the destructor, which runs after
  // the engine and any host callback holding the stream have let go of it.
  // A dropped record will never happen: it is resolved, so nothing waits for it
  // forever, but only once the task running now (if any) has finished, since a
  // wait on it may guard memory that task still writes (a pool block's free).
  {
    std::lock_guard lock(mutex_);
    dropped.ForEach([&](Task& task) {
      discarded_.push_back(task);
      if (task.kind == TaskKind::kEventRecord) unresolved_records_.emplace_back(task.event, task.generation);
    });
    abandon_at_ = enqueued_;  // everything queued so far is finished, running, or dropped here
    if (!unresolved_records_.empty()) has_unresolved_records_.store(true, std::memory_order_seq_cst);
  }
  MarkFinished(dropped.size());
}

void Stream::ResolveDroppedRecords(uint64_t finished) {
  std::vector<std::pair<Event*, uint64_t>> records;
  {
    std::lock_guard lock(mutex_);
    if (finished < abandon_at_) return;
    records.swap(unresolved_records_);
    has_unresolved_records_.store(false, std::memory_order_seq_cst);
  }
  // The dropped tasks in discarded_ still hold their event references.
  for (const auto& [event, generation] : records) event->Abandon(generation);
}

void Stream::ReleaseDiscarded() {
  ResolveDroppedRecords(~uint64_t{0});  // callers make sure nothing of the stream runs
  std::vector<Task> discarded;
  {
    std::lock_guard lock(mutex_);
    discarded.swap(discarded_);
  }
  for (Task& task : discarded) DropTask(task);
}

void Stream::EndReportSubscription() {
  const uint64_t thread_id = report_thread_.exchange(0);
  if (thread_id != 0) ReportRouter::Get().Unsubscribe(thread_id);
}

bool Stream::HasQueuedRecord(const Event* event, uint64_t generation) const {
  std::lock_guard lock(mutex_);
  bool found = false;
  queue_.ForEach([&](const Task& task) {
    found = found || (task.kind == TaskKind::kEventRecord && task.event == event && task.generation == generation);
  });
  return found;
}

bool Stream::TakeRunnable(Task& task) {
  uint64_t retired = 0;
  bool taken = false;
  {
    std::lock_guard lock(mutex_);
    while (!held_for_host_ && !queue_.empty()) {
      Task& head = queue_.front();
      if (head.kind == TaskKind::kEventWait) {
        if (!head.event->IsComplete(head.generation)) break;
        if (Tracer::Enabled()) Tracer::Get().Instant("event wait satisfied", "event", {device_id_, trace_id_}, NowNs());
        head.event->Release();
        queue_.pop_front();
        ++retired;
        continue;
      }
      task = head;
      queue_.pop_front();
      taken = true;
      break;
    }
    queued_.store(queue_.size(), std::memory_order_seq_cst);
  }
  // A retired wait may be the last task a host thread is waiting for.
  if (retired > 0) MarkFinished(retired);
  return taken;
}

void Stream::RecordFailure(int32_t status, const char* message) {
  {
    std::lock_guard lock(error_mutex_);
    if (sticky_error_ == 0) {
      sticky_error_ = status;
      sticky_message_ = message != nullptr ? message : "";
    }
  }
  // The client's exception callbacks hear of every failure, before a
  // synchronisation can report it (the task is not finished yet).
  ExceptionCallbacks::Dispatch({static_cast<uint32_t>(FinishedCount() + 1), trace_id_,
                                static_cast<uint32_t>(syscall(SYS_gettid)), static_cast<uint32_t>(device_id_),
                                static_cast<uint32_t>(status)});
}

void Stream::NotifyWaiters() {
  if (waiters_.load(std::memory_order_seq_cst) > 0 &&
      finished_.load(std::memory_order_seq_cst) >= wake_at_.load(std::memory_order_seq_cst)) {
    std::lock_guard lock(wait_mutex_);
    finished_cv_.notify_all();
  }
}

void Stream::MarkFinished(uint64_t count) {
  const uint64_t finished = finished_.fetch_add(count, std::memory_order_seq_cst) + count;
  if (has_unresolved_records_.load(std::memory_order_seq_cst)) ResolveDroppedRecords(finished);
  NotifyWaiters();
}

void Stream::Finish(int32_t status, const char* message) {
  if (status != 0) RecordFailure(status, message);
  MarkFinished(1);
}

void Stream::HoldForHost() {
  std::lock_guard lock(mutex_);
  held_for_host_ = true;
}

void Stream::ReleaseFromHost(int32_t status, const char* message) {
  {
    std::lock_guard lock(mutex_);
    held_for_host_ = false;
  }
  Finish(status, message);
  engine_->Notify();
}

bool Stream::EnqueueOrStartHostTask(const Task& task, std::shared_ptr<HostTaskClaim>& started) {
  {
    LockSpinningFirst(mutex_);
    std::lock_guard lock(mutex_, std::adopt_lock);
    if (closed_) return false;
    ++enqueued_;
    if (queue_.empty() && !held_for_host_ && finished_.load(std::memory_order_seq_cst) + 1 == enqueued_) {
      held_for_host_ = true;
      host_claim_ = std::make_shared<HostTaskClaim>(task, enqueued_);
      started = host_claim_;
      return true;
    }
    queue_.push_back(task);
    queued_.store(queue_.size(), std::memory_order_seq_cst);
  }
  engine_->Notify();
  return true;
}

std::shared_ptr<HostTaskClaim> Stream::HoldForHostTask(const Task& task) {
  std::lock_guard lock(mutex_);
  held_for_host_ = true;
  // The head task just taken: every task still queued comes after it (after a
  // DiscardPending none is, and the position is past it: a claim then only
  // runs where every task queued so far is waited for).
  host_claim_ = std::make_shared<HostTaskClaim>(task, enqueued_ - queue_.size());
  return host_claim_;
}

std::shared_ptr<HostTaskClaim> Stream::TakeHostClaim(uint64_t target) {
  std::lock_guard lock(mutex_);
  // A task queued after the synchronisation began is not its to run: it may
  // wait for something the synchronising thread does only after it returns.
  if (host_claim_ == nullptr || host_claim_->position() > target) return nullptr;
  return std::move(host_claim_);
}

void Stream::ForgetHostClaim(const HostTaskClaim* claim) {
  std::lock_guard lock(mutex_);
  if (host_claim_.get() == claim) host_claim_.reset();
}

uint64_t Stream::EnqueuedCount() const {
  std::lock_guard lock(mutex_);
  return enqueued_;
}

bool Stream::Idle() const {
  std::lock_guard lock(mutex_);
  return finished_.load(std::memory_order_acquire) >= enqueued_;
}

SyncResult Stream::Synchronize(int64_t timeout_ms, bool consume_error) {
  uint64_t target;
  {
    std::lock_guard lock(mutex_);
    target = enqueued_;
  }
  const auto done = [&] { return finished_.load(std::memory_order_seq_cst) >= target; };
  // A started host task nobody has claimed yet runs here rather than on a
  // callback thread this wait would then wait for (host_task.h). Not under a
  // timeout: the task may take longer.
  if (timeout_ms < 0 && !done()) RunPendingHostTask(*this, target);
  SyncResult result;
  // Short waits are common (a small kernel, an empty host function): poll for a
  // moment first, so neither side pays for a futex sleep and wake-up.
  if (!done()) SpinUntil(done, kHostSpinNs);
  if (!done()) {
    std::unique_lock lock(wait_mutex_);
    const auto registered = wait_targets_.insert(target);
    wake_at_.store(*wait_targets_.begin(), std::memory_order_seq_cst);
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    bool reached = true;
    if (timeout_ms < 0) {
      finished_cv_.wait(lock, done);
    } else {
      reached = finished_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
    }
    waiters_.fetch_sub(1, std::memory_order_seq_cst);
    wait_targets_.erase(registered);
    wake_at_.store(wait_targets_.empty() ? ~uint64_t{0} : *wait_targets_.begin(), std::memory_order_seq_cst);
    if (!reached) {
      result.kind = SyncResult::Kind::kTimeout;
      return result;
    }
  }
  // The host has seen everything up to here complete: the checker orders later work after it.
  if (Checker::Enabled()) Checker::Get().OnHostSynchronized(*this);
  if (!consume_error) return result;
  std::lock_guard lock(error_mutex_);
  if (sticky_error_ != 0) {
    result.kind = SyncResult::Kind::kFailed;
    result.error = sticky_error_;
    result.message = std::move(sticky_message_);
    sticky_error_ = 0;
    sticky_message_.clear();
  }
  return result;
}

}  // namespace canopy::runtime
