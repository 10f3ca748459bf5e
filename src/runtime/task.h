// One unit of work queued on a stream. Tasks are small plain values so that an
// enqueue is a copy into the stream's queue and a capture can keep them as data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace canopy::runtime {

class Event;

enum class TaskKind : uint8_t {
  kCompute,      // runs on the device engine: kernels, copies, memsets
  kHostFunc,     // runs on a callback thread; the stream waits for it
  kHostTask,     // canopyLaunchHostTask: a compute task run on a host thread (host_task.h)
  kReport,       // aclrtLaunchCallback: delivered to the subscribed thread
  kEventRecord,  // marks the moment the stream reaches it
  kEventReset,   // returns the event to "not recorded"
  kEventWait,    // holds the stream until the event's record completes
};

// Returns 0 on success or an aclError; on failure it sets the recent error message.
using ComputeFn = int32_t (*)(void* payload);
// Frees what the payload owns, once the task has run (or will never run).
using ReleaseFn = void (*)(void* payload);
using HostFn = void (*)(void* user_data);

struct Task {
  static constexpr size_t kPayloadBytes = 48;

  TaskKind kind = TaskKind::kCompute;
  bool blocking = true;  // kReport: does the stream wait for the callback?
  const char* name = "";
  ComputeFn compute = nullptr;
  ReleaseFn release = nullptr;
  HostFn host_fn = nullptr;
  Event* event = nullptr;
  uint64_t generation = 0;
  alignas(8) unsigned char payload[kPayloadBytes] = {};

  template <typename T>
  T& Payload() {
    static_assert(sizeof(T) <= kPayloadBytes && std::is_trivially_copyable_v<T>);
    return *reinterpret_cast<T*>(payload);
  }
  void* PayloadPtr() { return payload; }

  template <typename T>
  static Task Compute(const char* name, ComputeFn fn, const T& args, ReleaseFn release = nullptr) {
    Task task;
    task.kind = TaskKind::kCompute;
    task.name = name;
    task.compute = fn;
    task.release = release;
    task.Payload<T>() = args;
    return task;
  }
};

}  // namespace canopy::runtime
