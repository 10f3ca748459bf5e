// Threads that run host functions (aclrtLaunchHostFunc). The pool grows when
// every thread is busy, so a callback that blocks never delays another stream's.
//
// Its size is bounded by the work, not by a number: a stream waits for its
// host function before it runs the next one, so at most one thread per stream
// is busy. A fixed cap below that could deadlock (host functions of more
// streams than the cap, each waiting for another's, some never started); so
// the pool instead gives threads back: one idle for kIdleExit exits, down to
// kKeptIdle threads kept for the next host function.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <thread>

#include "task.h"

namespace canopy::runtime {

class Stream;

class HostCallbackPool {
 public:
  static constexpr std::chrono::milliseconds kIdleExit{1000};
  static constexpr size_t kKeptIdle = 1;

  static HostCallbackPool& Get();

  // Queues `work` for a pool thread. False when no thread is free and none
  // could be started (the system refused one); `error` then says why and
  // `work` has been dropped unrun.
  bool Submit(std::function<void()> work, std::string& error);
  // Joins every thread (aclFinalize); the pool restarts on the next Submit.
  void Shutdown();

  // Runs a host callback that holds `stream`; while it runs, the calling
  // thread knows which stream it holds (waiting for that stream would deadlock).
  static void RunHolding(const Stream* stream, HostFn fn, void* user_data);
  // The stream held by the host callback running on this thread, or null.
  static const Stream* HeldByCurrentThread();

 private:
  using Threads = std::list<std::thread>;

  HostCallbackPool() = default;
  void Worker(Threads::iterator self);

  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::deque<std::function<void()>> pending_;
  Threads threads_;  // running workers; one idle for kIdleExit leaves the list, detached
  size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace canopy::runtime
