// A device's compute engine: one thread that runs the tasks of all the device's
// streams, one head task per stream in turn, so a long queue on one stream never
// starves another and a stream blocked on an event or a host callback is skipped.
// Kernels parallelise internally over the shared OpenMP pool.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "task.h"

namespace canopy::runtime {

class Stream;

// The stream's message for a task `name` that returned `status`: the code and
// the calling thread's recent error, which the task set.
std::string TaskFailureMessage(const char* name, int32_t status);

class Engine {
 public:
  explicit Engine(int32_t device_id);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  ~Engine();  // stops the thread; streams must have been drained

  // Stops and joins the thread (idempotent); queued work is left where it is.
  void Stop();

  void AddStream(std::shared_ptr<Stream> stream);
  void RemoveStream(const Stream* stream);

  // Something changed (new task, event completed, host callback returned): look again.
  void Notify() {
    signals_.fetch_add(1, std::memory_order_seq_cst);
    if (sleeping_.load(std::memory_order_seq_cst)) WakeUp();
  }

  // Runs `work` on the engine's thread and its OpenMP team between two tasks (of
  // any stream; queued tasks are not waited for) and returns when it is done.
  // Synchronous copies use it so that the client's thread forks no OpenMP team
  // of its own (compute_team.h says what a second team costs). On any engine's
  // thread, or once the engine has stopped, `work` runs on the caller.
  void RunBetweenTasks(const std::function<void()>& work);

  // True on the engine's own thread (a kernel may not wait for its own stream).
  bool OnEngineThread() const { return std::this_thread::get_id() == thread_.get_id(); }
  // True on any device engine's thread.
  static bool CurrentThreadIsEngine();
  // The device whose engine the calling thread is; -1 on any other thread.
  static int32_t CurrentThreadDevice();
  // On an engine thread about to fork an OpenMP team: binds the engine's team
  // the first time (BindComputeTeam). Waiting until then keeps a process whose
  // work never forks from holding a second OpenMP team, which would shorten
  // the spinning of the client's own team (see compute_team.h). Elsewhere a no-op.
  static void PrepareComputeTeam();

 private:
  void Run();
  void Execute(const std::shared_ptr<Stream>& stream, Task& task);
  void WakeUp();
  void RunRequests();

  struct Request {
    const std::function<void()>* work;
    bool done = false;
  };

  const int32_t device_id_;
  std::atomic<uint64_t> signals_{0};
  std::atomic<bool> sleeping_{false};
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable wake_cv_;
  std::vector<std::shared_ptr<Stream>> streams_;  // guarded by mutex_
  std::atomic<uint64_t> streams_version_{0};
  std::deque<Request*> requests_;  // guarded by mutex_
  std::atomic<bool> has_requests_{false};
  std::condition_variable request_done_cv_;
  std::thread thread_;
};

}  // namespace canopy::runtime
