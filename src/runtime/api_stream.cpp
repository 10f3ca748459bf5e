// Streams: creation, destruction, synchronisation and queries.
#include <algorithm>

#include "api_common.h"
#include "checker.h"
#include "common/c_boundary.h"
#include "engine.h"

using namespace canopy::runtime;

namespace {

// Stream priorities run from 0 (highest) to 7; CANN clamps larger values.
constexpr uint32_t kLowestPriority = 7;

aclError CreateStream(const char* function, aclrtStream* stream, uint32_t priority, uint32_t flags) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (stream == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'stream' is null", function);
  const auto context = Runtime::Get().current_context();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: no current context (call aclrtSetDevice or aclrtCreateContext first)",
                function);
  }
  const auto created = context->CreateStream(flags, std::min(priority, kLowestPriority));
  if (created == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context is being destroyed on another thread", function);
  }
  *stream = created->handle();
  return ACL_SUCCESS;
}

aclError DestroyStream(const char* function, aclrtStream stream, bool discard_pending) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (stream == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'stream' is null (the default stream cannot be destroyed)",
                function);
  }
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(function, stream, target));
  // Held for the call: another thread may tear the context down meanwhile.
  const auto context = Runtime::Get().FindContext(target->context_handle());
  if (context == nullptr) {
    return Fail(kInvalidHandle, "%s: argument 'stream' (%p) is not a live stream (its context is being destroyed)",
                function, stream);
  }
  if (target == context->default_stream()) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: the default stream of a context cannot be destroyed", function);
  }
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckStreamNotCapturing(function, *target));
  if (!discard_pending) CANOPY_RETURN_IF_ERROR(CheckMayWait(function, *target));
  if (!context->DestroyStream(target, discard_pending)) {
    return Fail(kInvalidHandle, "%s: argument 'stream' (%p) is not a live stream", function, stream);
  }
  // Now, not whenever the last reference to the stream goes: the report thread
  // may subscribe to another device's streams once it serves none of this one.
  target->EndReportSubscription();
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) try { return CreateStream(__func__, stream, 0, 0); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) try {
  // Every flag combination runs as a plain in-order stream on the CPU.
  return CreateStream(__func__, stream, priority, flag);
}
CANOPY_C_BOUNDARY_ACL

// Pending work finishes first: destroying never drops queued tasks.
aclError aclrtDestroyStream(aclrtStream stream) try { return DestroyStream(__func__, stream, false); }
CANOPY_C_BOUNDARY_ACL

// Drops the tasks that have not started; one already running finishes.
aclError aclrtDestroyStreamForce(aclrtStream stream) try { return DestroyStream(__func__, stream, true); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSynchronizeStream(aclrtStream stream) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  CANOPY_RETURN_IF_ERROR(CheckMayWait(__func__, *target));
  return ReportSync(__func__, target->Synchronize(-1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) try {
  CANOPY_REQUIRE_INIT();
  if (timeout == 0 || timeout < -1) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "aclrtSynchronizeStreamWithTimeout: argument 'timeout' must be -1 (forever) or > 0 ms, "
                "got %d",
                timeout);
  }
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  CANOPY_RETURN_IF_ERROR(CheckMayWait(__func__, *target));
  return ReportSync(__func__, target->Synchronize(timeout), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(status);
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckStreamNotCapturing(__func__, *target));
  *status = target->Idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  // Seen complete, the stream's work is ordered before what the host enqueues next, as after a synchronize.
  if (*status == ACL_STREAM_STATUS_COMPLETE && Checker::Enabled()) Checker::Get().OnHostSynchronized(*target);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(priority);
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  *priority = target->priority();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(flags);
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  *flags = target->flags();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(leastPriority);
  CANOPY_REQUIRE_NOT_NULL(greatestPriority);
  *leastPriority = static_cast<int32_t>(kLowestPriority);
  *greatestPriority = 0;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
