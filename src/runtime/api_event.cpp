// Events: record, wait, reset, query, synchronise and elapsed time.
#include <utility>

#include "api_common.h"
#include "checker.h"
#include "common/c_boundary.h"
#include "event.h"

using namespace canopy::runtime;

namespace {

// A retained event: released when the guard leaves scope unless handed to a task.
class EventRef {
 public:
  EventRef() = default;
  EventRef(const EventRef&) = delete;
  EventRef& operator=(const EventRef&) = delete;
  ~EventRef() {
    if (event_ != nullptr) event_->Release();
  }
  Event* get() const { return event_; }
  Event* operator->() const { return event_; }
  Event* Detach() { return std::exchange(event_, nullptr); }
  void Reset(Event* event) { event_ = event; }

 private:
  Event* event_ = nullptr;
};

aclError ResolveEvent(const char* function, const char* argument, aclrtEvent handle, EventRef& event) {
  if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is null", function, argument);
  event.Reset(Runtime::Get().FindEventRetained(handle));
  if (event.get() != nullptr) return ACL_SUCCESS;
  return Fail(kInvalidHandle, "%s: argument '%s' (%p) is not a live event", function, argument, handle);
}

// CANN refuses aclrtResetEvent and aclrtQueryEvent on events made by
// aclrtCreateEventExWithFlag (IPC events among them) as not supported.
aclError CheckNotExCreated(const char* function, const Event& event) {
  if (!event.ex_created()) return ACL_SUCCESS;
  if (event.flags() == ACL_EVENT_IPC) {
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not supported for an IPC event (ACL_EVENT_IPC)", function);
  }
  return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not supported for an event created by aclrtCreateEventExWithFlag",
              function);
}

aclError EnqueueEventTask(const char* function, TaskKind kind, aclrtEvent event, aclrtStream stream) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  EventRef target;
  CANOPY_RETURN_IF_ERROR(ResolveEvent(function, "event", event, target));
  if (kind == TaskKind::kEventReset) CANOPY_RETURN_IF_ERROR(CheckNotExCreated(function, *target.get()));
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(function, stream, queue));
  // Under capture the model records the event task; no generation is taken until replay.
  if (aclError status;
      CaptureRegistry::Get().RecordEvent(function, *queue, kind, target.get(), stream == nullptr, &status)) {
    return status;
  }
  if (Checker::Enabled()) {
    if (kind == TaskKind::kEventRecord) Checker::Get().OnEventRecord(*queue, target.get());
    if (kind == TaskKind::kEventWait) Checker::Get().OnStreamWaitEvent(*queue, target.get());
  }
  Task task;
  task.kind = kind;
  task.name = function;
  // A record takes its generation in Stream::Enqueue, only once it is queued.
  if (kind == TaskKind::kEventWait) task.generation = target->LatestRecord();
  task.event = target.Detach();  // the task owns this reference now
  return Submit(function, *queue, task);
}

// ACL_EVENT_EXTERNAL and ACL_EVENT_IPC must stand alone; IPC only through ExWithFlag.
aclError CheckEventFlags(const char* function, uint32_t flag, bool allow_ipc) {
  constexpr uint32_t kCombinable =
      ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY;
  const bool alone = flag == ACL_EVENT_EXTERNAL || (allow_ipc && flag == ACL_EVENT_IPC);
  if (alone || (flag & ~kCombinable) == 0) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flag' (0x%x) is not a valid combination of ACL_EVENT_* flags",
              function, flag);
}

aclError CreateEvent(const char* function, aclrtEvent* event, uint32_t flag, bool ex_created = false) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (event == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'event' is null", function);
  *event = Runtime::Get().RegisterEvent(new Event(flag, ex_created));
  return ACL_SUCCESS;
}

// A host callback waiting for a record queued behind it on the stream it holds
// would wait forever: that stream moves on only once the callback returns.
aclError CheckMayWaitForRecord(const char* function, const Event& event, uint64_t generation) {
  // A task on a device engine (canopyLaunchTask) that waits blocks its engine,
  // and the record may be queued on one of that engine's streams, behind it:
  // an event does not say which, so any unfinished record is refused there, as
  // CheckMayWait refuses synchronising a stream of the same device.
  if (Engine::CurrentThreadIsEngine() && !event.IsComplete(generation)) {
    return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                "%s: called from a task running on a device while the event's record is not reached; the record "
                "may be queued behind this task, so waiting could deadlock",
                function);
  }
  const Stream* held = HostCallbackPool::HeldByCurrentThread();
  if (held == nullptr || event.IsComplete(generation) || !held->HasQueuedRecord(&event, generation)) {
    return ACL_SUCCESS;
  }
  return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
              "%s: called from a host callback of the stream on which the event is recorded after the "
              "callback; the stream waits for the callback, so waiting would deadlock",
              function);
}

aclError SynchronizeEvent(const char* function, aclrtEvent event, int64_t timeout_ms) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  EventRef target;
  CANOPY_RETURN_IF_ERROR(ResolveEvent(function, "event", event, target));
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckEventNotCaptured(function, target.get()));
  const uint64_t generation = target->LatestRecord();
  CANOPY_RETURN_IF_ERROR(CheckMayWaitForRecord(function, *target.get(), generation));
  if (!target->Wait(generation, timeout_ms)) {
    return Fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "%s: timed out after %lld ms", function,
                static_cast<long long>(timeout_ms));
  }
  if (Checker::Enabled()) Checker::Get().OnHostSynchronized(target.get());
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) try { return CreateEvent(__func__, event, ACL_EVENT_TIME_LINE); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_RETURN_IF_ERROR(CheckEventFlags(__func__, flag, /*allow_ipc=*/false));
  return CreateEvent(__func__, event, flag);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_RETURN_IF_ERROR(CheckEventFlags(__func__, flag, /*allow_ipc=*/true));
  return CreateEvent(__func__, event, flag, /*ex_created=*/true);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDestroyEvent(aclrtEvent event) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(event);
  Event* removed = Runtime::Get().UnregisterEvent(event);
  if (removed == nullptr) {
    return Fail(kInvalidHandle, "aclrtDestroyEvent: argument 'event' (%p) is not a live event", event);
  }
  if (Checker::Enabled()) Checker::Get().ForgetEvent(removed);
  removed->Release();  // queued records and waits keep their own references
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) try {
  return EnqueueEventTask(__func__, TaskKind::kEventRecord, event, stream);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) try {
  return EnqueueEventTask(__func__, TaskKind::kEventReset, event, stream);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) try {
  return EnqueueEventTask(__func__, TaskKind::kEventWait, event, stream);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSynchronizeEvent(aclrtEvent event) try { return SynchronizeEvent(__func__, event, -1); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) try {
  CANOPY_REQUIRE_INIT();
  if (timeout == 0 || timeout < -1) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "aclrtSynchronizeEventWithTimeout: argument 'timeout' must be -1 (forever) or > 0 ms, "
                "got %d",
                timeout);
  }
  return SynchronizeEvent(__func__, event, timeout);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(status);
  EventRef target;
  CANOPY_RETURN_IF_ERROR(ResolveEvent(__func__, "event", event, target));
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckEventNotCaptured(__func__, target.get()));
  *status = target->LatestComplete() ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  // Seen complete, the recorded work is ordered before what the host enqueues next, as after a synchronize.
  if (*status == ACL_EVENT_RECORDED_STATUS_COMPLETE && Checker::Enabled()) {
    Checker::Get().OnHostSynchronized(target.get());
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(status);
  EventRef target;
  CANOPY_RETURN_IF_ERROR(ResolveEvent(__func__, "event", event, target));
  CANOPY_RETURN_IF_ERROR(CheckNotExCreated(__func__, *target.get()));
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckEventNotCaptured(__func__, target.get()));
  *status = target->LatestComplete() ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  if (*status == ACL_EVENT_STATUS_COMPLETE && Checker::Enabled()) Checker::Get().OnHostSynchronized(target.get());
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(ms);
  EventRef start, end;
  CANOPY_RETURN_IF_ERROR(ResolveEvent(__func__, "startEvent", startEvent, start));
  CANOPY_RETURN_IF_ERROR(ResolveEvent(__func__, "endEvent", endEvent, end));
  // CANN documents IPC events as unusable for elapsed time.
  if (start->flags() == ACL_EVENT_IPC || end->flags() == ACL_EVENT_IPC) {
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtEventElapsedTime: not supported for an IPC event (ACL_EVENT_IPC)");
  }
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckEventNotCaptured(__func__, start.get()));
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckEventNotCaptured(__func__, end.get()));
  if (!start->LatestComplete() || !end->LatestComplete() || !start->EverCompleted() || !end->EverCompleted()) {
    return Fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                "aclrtEventElapsedTime: both events must have been recorded and completed");
  }
  *ms = static_cast<float>(static_cast<double>(end->TimestampNs() - start->TimestampNs()) /
                           static_cast<double>(kNsPerMs));
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
