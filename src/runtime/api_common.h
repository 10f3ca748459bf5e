// Shared prologue of the runtime's C entry points: initialisation and argument
// checks that set the recent error message and return the documented code.
#pragma once

#include <memory>

#include "acl/acl.h"
#include "capture.h"
#include "engine.h"
#include "error_message.h"
#include "event.h"
#include "host_callback_pool.h"
#include "runtime.h"
#include "stream.h"

#define CANOPY_RETURN_IF_ERROR_INLINE(expr)                                                  \
  do {                                                                                       \
    if (const aclError canopy_inline_status_ = (expr); canopy_inline_status_ != ACL_SUCCESS) \
      return canopy_inline_status_;                                                          \
  } while (0)

namespace canopy::runtime {

// Code for a handle (stream, event, context) that is not live.
inline constexpr aclError kInvalidHandle = ACL_ERROR_INVALID_PARAM;

inline aclError RequireInitialized(const char* function) {
  if (Runtime::Get().initialized()) return ACL_SUCCESS;
  return Fail(ACL_ERROR_UNINITIALIZE, "%s: acl is not initialized (call aclInit first)", function);
}

// Resolves a device id (the devices exist from aclInit to aclFinalize).
inline aclError ResolveDevice(const char* function, int32_t device_id, std::shared_ptr<Device>& device) {
  device = Runtime::Get().device(device_id);
  if (device != nullptr) return ACL_SUCCESS;
  return Fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %d does not exist (%d device(s))", function, device_id,
              Runtime::Get().config().device_count);
}

// Resolves a stream handle; nullptr means the current context's default stream.
inline aclError ResolveStream(const char* function, aclrtStream handle, std::shared_ptr<Stream>& stream) {
  stream = Runtime::Get().FindStream(handle);
  if (stream) return ACL_SUCCESS;
  if (handle == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: no current context for the default stream (call aclrtSetDevice first)",
                function);
  }
  return Fail(kInvalidHandle, "%s: argument 'stream' (%p) is not a live stream", function, handle);
}

// A host wait on `stream` from its own engine, or from the host callback that
// holds it, could never finish: refuse it instead of deadlocking.
inline aclError CheckMayWait(const char* function, const Stream& stream) {
  // Waiting on a capturing stream is illegal: its work has not been enqueued.
  CANOPY_RETURN_IF_ERROR_INLINE(CaptureRegistry::Get().CheckStreamNotCapturing(function, stream));
  if (stream.engine().OnEngineThread()) {
    return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                "%s: called from a task running on the same device; waiting would deadlock", function);
  }
  if (HostCallbackPool::HeldByCurrentThread() == &stream) {
    return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                "%s: called from a host callback of the same stream; the stream waits for the "
                "callback, so waiting would deadlock",
                function);
  }
  return ACL_SUCCESS;
}

// aclrtDestroyContext, aclrtResetDevice and aclFinalize drain streams: called
// from a host function of one of them, or from a task on the engine that runs
// them, they would wait for themselves. Refuse them as CheckMayWait refuses a
// synchronisation. `context` null: every stream of `engine`'s device; `engine`
// null: every stream of every device.
inline aclError CheckNotInsideDrainedWork(const char* function, const Engine* engine, const Context* context) {
  const Stream* held = HostCallbackPool::HeldByCurrentThread();
  const bool engine_thread = engine != nullptr ? engine->OnEngineThread() : Engine::CurrentThreadIsEngine();
  const bool held_drained = held != nullptr && (context == nullptr ? engine == nullptr || &held->engine() == engine
                                                                   : held->context() == context);
  if (held_drained) {
    return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                "%s: called from a host function of a stream it would drain; the stream waits for the host "
                "function, so this would deadlock (call it from another thread)",
                function);
  }
  if (engine_thread) {
    return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                "%s: called from a task running on the device it would drain; waiting would deadlock", function);
  }
  return ACL_SUCCESS;
}

// Queues `task`. When the stream is being destroyed the call fails, as for any
// stream that is no longer live: the event reference the task held is dropped,
// but the payload still belongs to the caller (its release is not called).
inline aclError Submit(const char* function, Stream& stream, Task& task) {
  // A capturing stream records the task into its model instead of running it.
  if (aclError status; CaptureRegistry::Get().Record(function, stream, task, &status)) {
    if (status != ACL_SUCCESS && task.event != nullptr) task.event->Release();
    return status;
  }
  if (stream.Enqueue(task)) return ACL_SUCCESS;
  if (task.event != nullptr) task.event->Release();
  return Fail(kInvalidHandle, "%s: argument 'stream' (%p) is being destroyed", function, stream.handle());
}

// Converts a host-side wait into the API's status, surfacing asynchronous failures.
inline aclError ReportSync(const char* function, const SyncResult& result, aclError timeout_code) {
  switch (result.kind) {
    case SyncResult::Kind::kDone:
      return ACL_SUCCESS;
    case SyncResult::Kind::kTimeout:
      return Fail(timeout_code, "%s: timed out waiting for the stream", function);
    case SyncResult::Kind::kFailed:
      SetRecentErrorF("%s: asynchronous work failed: %s", function, result.message.c_str());
      SetLastErrorCode(result.error);
      return result.error;
  }
  return ACL_SUCCESS;
}

}  // namespace canopy::runtime

#define CANOPY_RETURN_IF_ERROR(expr)                                                                  \
  do {                                                                                                \
    if (const aclError canopy_status_ = (expr); canopy_status_ != ACL_SUCCESS) return canopy_status_; \
  } while (0)

#define CANOPY_REQUIRE_INIT() CANOPY_RETURN_IF_ERROR(::canopy::runtime::RequireInitialized(__func__))

#define CANOPY_REQUIRE_NOT_NULL(arg)                                                                        \
  do {                                                                                                      \
    if ((arg) == nullptr)                                                                                   \
      return ::canopy::runtime::Fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is null", __func__, #arg); \
  } while (0)
