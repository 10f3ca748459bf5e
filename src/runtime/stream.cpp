#include "stream.h"

#include <chrono>

#include "engine.h"
#include "event.h"

namespace canopy::runtime {

Stream::Stream(Engine& engine, Context* context, int32_t device_id, uint32_t flags,
               uint32_t priority)
    : engine_(engine), context_(context), device_id_(device_id), flags_(flags),
      priority_(priority) {}

Stream::~Stream() {
  // Tasks that never ran still own resources (events, executors).
  for (Task& task : queue_) {
    if (task.release != nullptr) task.release(task.PayloadPtr());
    if (task.event != nullptr) task.event->Release();
  }
}

void Stream::Enqueue(const Task& task) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(task);
    ++enqueued_;
  }
  engine_.Notify();
}

bool Stream::TakeRunnable(Task& task) {
  std::lock_guard lock(mutex_);
  while (!held_for_host_ && !queue_.empty()) {
    Task& head = queue_.front();
    if (head.kind == TaskKind::kEventWait) {
      if (!head.event->IsComplete(head.generation)) return false;
      head.event->Release();
      queue_.pop_front();
      finished_.fetch_add(1, std::memory_order_acq_rel);
      continue;
    }
    task = head;
    queue_.pop_front();
    return true;
  }
  return false;
}

void Stream::RecordFailure(int32_t status, const char* message) {
  std::lock_guard lock(error_mutex_);
  if (sticky_error_ == 0) {
    sticky_error_ = status;
    sticky_message_ = message != nullptr ? message : "";
  }
}

void Stream::Finish(int32_t status, const char* message) {
  if (status != 0) RecordFailure(status, message);
  finished_.fetch_add(1, std::memory_order_seq_cst);
  if (waiters_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard lock(wait_mutex_);
    finished_cv_.notify_all();
  }
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
  engine_.Notify();
}

bool Stream::Idle() const {
  std::lock_guard lock(mutex_);
  return finished_.load(std::memory_order_acquire) >= enqueued_;
}

SyncResult Stream::Synchronize(int64_t timeout_ms) {
  uint64_t target;
  {
    std::lock_guard lock(mutex_);
    target = enqueued_;
  }
  const auto done = [&] { return finished_.load(std::memory_order_seq_cst) >= target; };
  SyncResult result;
  if (!done()) {
    std::unique_lock lock(wait_mutex_);
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    bool reached = true;
    if (timeout_ms < 0) {
      finished_cv_.wait(lock, done);
    } else {
      reached = finished_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
    }
    waiters_.fetch_sub(1, std::memory_order_seq_cst);
    if (!reached) {
      result.kind = SyncResult::Kind::kTimeout;
      return result;
    }
  }
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
