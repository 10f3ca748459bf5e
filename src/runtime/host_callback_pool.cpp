#include "host_callback_pool.h"

#include <system_error>

#include "compute_team.h"

namespace canopy::runtime {
namespace {
thread_local const Stream* held_stream = nullptr;
}  // namespace

void HostCallbackPool::RunHolding(const Stream* stream, HostFn fn, void* user_data) {
  const Stream* previous = held_stream;
  held_stream = stream;
  fn(user_data);
  held_stream = previous;
}

const Stream* HostCallbackPool::HeldByCurrentThread() { return held_stream; }

HostCallbackPool& HostCallbackPool::Get() {
  static auto* pool = new HostCallbackPool();  // outlives static destructors
  return *pool;
}

bool HostCallbackPool::Submit(std::function<void()> work, std::string& error) {
  bool submitted = true;
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(work));
    if (idle_ >= pending_.size()) {
      work_cv_.notify_one();
    } else {
      const auto self = threads_.emplace(threads_.end());
      try {
        // The worker touches `self` only under mutex_, which is held until it is set.
        *self = std::thread([this, self] { Worker(self); });
      } catch (const std::system_error& failure) {
        // Every thread is busy, possibly each with a host function waiting for
        // this one: waiting for one to come free could wait forever. Refuse it.
        threads_.erase(self);
        pending_.pop_back();
        error = failure.what();
        submitted = false;
      }
    }
  }
  return submitted;
}

void HostCallbackPool::Worker(Threads::iterator self) {
  UnbindCurrentThread();  // started by an engine thread, bound to one CPU
  std::unique_lock lock(mutex_);
  while (true) {
    ++idle_;
    const bool woken = work_cv_.wait_for(lock, kIdleExit, [&] { return stopping_ || !pending_.empty(); });
    --idle_;
    if (stopping_ && pending_.empty()) return;  // Shutdown joins it
    if (!woken) {
      if (idle_ < kKeptIdle) continue;  // the last idle threads stay
      // It leaves detached: a thread cannot join itself, and nothing may ever
      // come to join it (a process that never calls aclFinalize), which would
      // leave a finished thread unjoined for good. Past this point it touches
      // nothing but the lock it releases on return, and the pool is never destroyed.
      self->detach();
      threads_.erase(self);
      return;
    }
    auto work = std::move(pending_.front());
    pending_.pop_front();
    lock.unlock();
    work();
    lock.lock();
  }
}

void HostCallbackPool::Shutdown() {
  Threads threads;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
    work_cv_.notify_all();
  }
  for (auto& thread : threads) thread.join();
  std::lock_guard lock(mutex_);
  stopping_ = false;
}

}  // namespace canopy::runtime
