// The callbacks a client registers to hear of failed tasks
// (aclrtExceptionInfoCallbackRegister, aclrtSetExceptionInfoCallback). Each
// failure of a queued task (Stream::RecordFailure) calls every callback once,
// on the engine thread that ran the task, before the failure is reported by
// the next synchronisation (a failed host function: on its host thread). A callback must not wait for its own device's
// work: such waits are refused from an engine thread (CheckMayWait).
#pragma once

#include <cstdint>

#include "acl/acl.h"

// What aclrtGet*FromExceptionInfo read (aclrtExceptionInfo is CANN's opaque
// struct rtExceptionInfo).
struct rtExceptionInfo {
  uint32_t task_id;    // the task's position in its stream, counted from 1
  uint32_t stream_id;  // as aclrtStreamGetId reports it
  uint32_t thread_id;  // the engine thread that ran the task
  uint32_t device_id;
  uint32_t error_code;  // the status the task failed with
};

namespace canopy::runtime {

class ExceptionCallbacks {
 public:
  // aclrtSetExceptionInfoCallback: the one callback of the older API (null clears it).
  static void Set(aclrtExceptionInfoCallback callback);
  // False when `callback` is already registered.
  static bool Register(aclrtExceptionInfoCallback callback);
  // False when `callback` is not registered.
  static bool Unregister(aclrtExceptionInfoCallback callback);
  // Calls every callback with `info`. Callbacks are called without a lock held.
  static void Dispatch(rtExceptionInfo info);
};

}  // namespace canopy::runtime
