// Streams: creation, destruction, synchronisation and queries.
#include "api_common.h"
#include "engine.h"

using namespace canopy::runtime;

namespace {

aclError CreateStream(const char* function, aclrtStream* stream, uint32_t priority, uint32_t flags) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (stream == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'stream' is null", function);
  Context* context = Runtime::Get().current_context();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "%s: no current context (call aclrtSetDevice or aclrtCreateContext first)", function);
  }
  *stream = context->CreateStream(flags, priority).get();
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) { return CreateStream(__func__, stream, 0, 0); }

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  constexpr uint32_t kMaxPriority = 7;
  if (priority > kMaxPriority) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtCreateStreamWithConfig: priority must be 0..%u, got %u", kMaxPriority, priority);
  }
  return CreateStream(__func__, stream, priority, flag);
}

aclError aclrtDestroyStream(aclrtStream stream) {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(stream);
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  if (target == target->context()->default_stream()) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: the default stream cannot be destroyed");
  }
  // Pending work finishes first: destroying never drops queued tasks.
  target->Synchronize(-1);
  target->context()->RemoveStream(target.get());
  return ACL_SUCCESS;
}

aclError aclrtDestroyStreamForce(aclrtStream stream) { return aclrtDestroyStream(stream); }

aclError aclrtSynchronizeStream(aclrtStream stream) {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  if (target->engine().OnEngineThread()) {
    return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                "aclrtSynchronizeStream: called from inside a task of the same device (deadlock)");
  }
  return ReportSync(__func__, target->Synchronize(-1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  CANOPY_REQUIRE_INIT();
  if (timeout < -1) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtSynchronizeStreamWithTimeout: timeout must be -1 (forever) or >= 0 ms, got %d",
                timeout);
  }
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  return ReportSync(__func__, target->Synchronize(timeout), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(status);
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  *status = target->Idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

}  // extern "C"
