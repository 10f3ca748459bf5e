// Threads that run host functions (aclrtLaunchHostFunc). The pool grows when
// every thread is busy, so a callback that blocks never delays another stream's.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "task.h"

namespace canopy::runtime {

class Stream;

class HostCallbackPool {
 public:
  static HostCallbackPool& Get();

  void Submit(std::function<void()> work);
  // Joins every thread (aclFinalize); the pool restarts on the next Submit.
  void Shutdown();

  // Runs a host callback that holds `stream`; while it runs, the calling
  // thread knows which stream it holds (waiting for that stream would deadlock).
  static void RunHolding(const Stream* stream, HostFn fn, void* user_data);
  // The stream held by the host callback running on this thread, or null.
  static const Stream* HeldByCurrentThread();

 private:
  HostCallbackPool() = default;
  void Worker();

  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::deque<std::function<void()>> pending_;
  std::vector<std::thread> threads_;
  size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace canopy::runtime
