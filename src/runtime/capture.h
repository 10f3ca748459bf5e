// Stream capture into model run instances (aclmdlRI): while a stream captures,
// what is enqueued on it is recorded instead of run; a stream that waits on an
// event recorded in the capture joins it. A model replays its tasks in capture
// order (a valid order for every dependency the capture saw) on any stream.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "acl/acl.h"
#include "checker.h"
#include "task.h"

namespace canopy::runtime {

class Event;
class Stream;

// A recorded task and what replay needs to know about it.
struct CapturedTask {
  Task task;
  int32_t stream_index = 0;     // which captured stream enqueued it
  bool event_internal = false;  // a wait on an event recorded inside the capture
  // Checker mode: the device ranges the task touches, checked at every replay.
  const char* op = "";
  std::vector<MemoryAccess> accesses;
};

// aclmdlRI: owns the captured tasks' payloads (executors, events) until destroyed.
class ModelInstance {
 public:
  ModelInstance() = default;
  ModelInstance(const ModelInstance&) = delete;
  ModelInstance& operator=(const ModelInstance&) = delete;
  ~ModelInstance();

  // The client's handle: a unique value (Runtime::NewHandle), never an address,
  // so a destroyed model's handle never names a later one. Given at capture begin.
  aclmdlRI handle = nullptr;
  std::vector<CapturedTask> tasks;
  int32_t stream_count = 1;
  // Replays queued and not yet finished (guarded by ModelTable's mutex); destroying then is refused.
  int32_t pending_replays = 0;
  // Run at destruction, after the tasks' payloads are released: pool blocks
  // freed during the capture go back to the pool only when no replay can use them.
  std::vector<std::function<void()>> on_destroy;
};

// The state of one capture, shared by the streams that take part in it.
struct CaptureSession {
  std::shared_ptr<ModelInstance> model = std::make_shared<ModelInstance>();
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
  std::thread::id thread;
  Stream* origin = nullptr;
  bool invalidated = false;
  std::vector<Stream*> streams;  // origin first
  struct RecordedEvent {
    Event* event;
    int32_t stream_index;
    size_t task_index;
  };
  std::vector<RecordedEvent> recorded_events;
  std::vector<int32_t> joined_by_wait;  // stream indices whose last record another stream waited on
  // Checker mode: accesses checked for a stream's next task, attached to it when it is recorded.
  struct StashedAccesses {
    const Stream* stream;
    const char* op;
    std::vector<MemoryAccess> accesses;
  };
  std::vector<StashedAccesses> stashed;
};

class CaptureRegistry {
 public:
  static CaptureRegistry& Get();

  // Cheap test on every enqueue: is any capture active at all?
  bool AnyActive() const { return active_.load(std::memory_order_acquire) > 0; }

  aclError Begin(Stream& stream, aclmdlRICaptureMode mode);
  aclError End(Stream& stream, aclmdlRI* model);
  aclError GetInfo(Stream& stream, aclmdlRICaptureStatus* status, aclmdlRI* model);

  // Enqueue hook: true when the stream captures (the task was recorded, or
  // refused with *status set); false when it should be queued normally.
  bool Record(const char* function, Stream& stream, const Task& task, aclError* status);
  // Event hook for record/wait/reset, before any generation is taken.
  bool RecordEvent(const char* function, Stream& stream, TaskKind kind, Event* event, bool is_default_stream,
                   aclError* status);

  // `stream` is being destroyed (aclrtDestroyStream, its context destroyed or its
  // device reset): the capture it takes part in is invalidated, and dropped when
  // it began there (nobody can end it any more), so nothing keeps its address and
  // a later stream at the same address is not mistaken for it.
  void ForgetStream(const Stream& stream);

  // Checker mode: when `stream` captures, keeps the accesses for the task about to
  // be recorded (replays check them) and returns true; false otherwise.
  bool StashAccesses(const Stream& stream, const char* op, const MemoryAccess* accesses, size_t count);

  // canopyFreeAsync on a capturing stream: every replay's tasks still use the
  // block, so `release` runs when the model is destroyed (or the capture fails).
  // False when `stream` does not capture.
  bool KeepUntilModelDestroyed(const Stream& stream, std::function<void()> release);

  // Calls that are illegal while `stream` captures: the capture is invalidated.
  aclError CheckStreamNotCapturing(const char* function, const Stream& stream);
  aclError CheckEventNotCaptured(const char* function, Event* event);
  // aclrtMemcpy / aclrtMemset / aclrtMemcpy2d under GLOBAL or this thread's THREAD_LOCAL capture.
  aclError CheckUnsafeCallAllowed(const char* function);

  // The calling thread's mode for aclmdlRICaptureThreadExchangeMode.
  static aclmdlRICaptureMode ExchangeThreadMode(aclmdlRICaptureMode mode);

 private:
  CaptureRegistry() = default;
  CaptureSession* SessionOf(const Stream& stream) const;
  void Invalidate(CaptureSession& session);

  mutable std::mutex mutex_;
  std::atomic<int32_t> active_{0};
  std::vector<std::shared_ptr<CaptureSession>> sessions_;
  std::vector<std::pair<const Stream*, CaptureSession*>> members_;
};

// The models handed to clients, so a stale aclmdlRI is an error, not a crash.
class ModelTable {
 public:
  static ModelTable& Get();
  aclmdlRI Add(std::shared_ptr<ModelInstance> model);
  std::shared_ptr<ModelInstance> Find(aclmdlRI handle);
  // Finds the model and counts one replay in, atomically with Remove's check, so
  // a replay never starts on a model being destroyed. EndReplay counts it out.
  std::shared_ptr<ModelInstance> BeginReplay(aclmdlRI handle);
  void EndReplay(ModelInstance& model);
  // Removes the model unless replays are pending (`*pending` says how many).
  // Returns the removed model for the caller to drop outside the lock; null otherwise.
  std::shared_ptr<ModelInstance> Remove(aclmdlRI handle, int32_t* pending);

 private:
  std::mutex mutex_;
  std::unordered_map<aclmdlRI, std::shared_ptr<ModelInstance>> models_;
};

}  // namespace canopy::runtime
