#include "host_callback_pool.h"

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

void HostCallbackPool::Submit(std::function<void()> work) {
  std::lock_guard lock(mutex_);
  pending_.push_back(std::move(work));
  if (idle_ < pending_.size()) {
    threads_.emplace_back([this] { Worker(); });
  } else {
    work_cv_.notify_one();
  }
}

void HostCallbackPool::Worker() {
  std::unique_lock lock(mutex_);
  while (true) {
    ++idle_;
    work_cv_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    --idle_;
    if (pending_.empty()) return;  // stopping and nothing left
    auto work = std::move(pending_.front());
    pending_.pop_front();
    lock.unlock();
    work();
    lock.lock();
  }
}

void HostCallbackPool::Shutdown() {
  std::vector<std::thread> threads;
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
