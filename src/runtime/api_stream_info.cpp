// Stream creation options, identity, attributes and failure mode. A Canopy
// stream runs its tasks in order on its device's engine; after a failed task
// it goes on with the next one (ACL_CONTINUE_ON_FAILURE, CANN's default) and
// the failure is reported by the next synchronisation.
#include <cstring>
#include <new>

#include "api_common.h"
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

// Reads an unsigned option value of 4 or 8 bytes.
aclError ReadUnsigned(const char* function, const void* value, size_t size, uint64_t& out) {
  if (size == sizeof(uint32_t)) {
    uint32_t narrow;
    std::memcpy(&narrow, value, sizeof(narrow));
    out = narrow;
    return ACL_SUCCESS;
  }
  if (size == sizeof(uint64_t)) {
    std::memcpy(&out, value, sizeof(out));
    return ACL_SUCCESS;
  }
  return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'valueSize' (%zu) is neither 4 nor 8", function, size);
}

}  // namespace

extern "C" {

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) try {
  CANOPY_REQUIRE_NOT_NULL(handle);
  if (handle->flag > UINT32_MAX) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2: the handle's flag (%zu) is not a stream flag",
                handle->flag);
  }
  // The work memory a client may offer (workptr, workSize) is not needed: a
  // Canopy stream keeps its tasks in host memory of its own.
  return aclrtCreateStreamWithConfig(stream, handle->priority, static_cast<uint32_t>(handle->flag));
}
CANOPY_C_BOUNDARY_ACL

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) try {
  auto* handle = new (std::nothrow) aclrtStreamConfigHandle{};
  if (handle == nullptr) SetRecentError("aclrtCreateStreamConfigHandle: out of host memory");
  return handle;
}
CANOPY_C_BOUNDARY(nullptr)

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) try {
  CANOPY_REQUIRE_NOT_NULL(handle);
  delete handle;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr, const void* attrValue,
                                 size_t valueSize) try {
  CANOPY_REQUIRE_NOT_NULL(handle);
  CANOPY_REQUIRE_NOT_NULL(attrValue);
  uint64_t value = 0;
  switch (attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
      if (valueSize != sizeof(void*)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamConfigOpt: a work address takes %zu bytes, not %zu",
                    sizeof(void*), valueSize);
      }
      std::memcpy(&handle->workptr, attrValue, sizeof(void*));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_WORK_SIZE:
      CANOPY_RETURN_IF_ERROR(ReadUnsigned(__func__, attrValue, valueSize, value));
      handle->workSize = value;
      return ACL_SUCCESS;
    case ACL_RT_STREAM_FLAG:
      CANOPY_RETURN_IF_ERROR(ReadUnsigned(__func__, attrValue, valueSize, value));
      handle->flag = value;
      return ACL_SUCCESS;
    case ACL_RT_STREAM_PRIORITY:
      CANOPY_RETURN_IF_ERROR(ReadUnsigned(__func__, attrValue, valueSize, value));
      if (value > UINT32_MAX) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamConfigOpt: priority %llu is out of range",
                    static_cast<unsigned long long>(value));
      }
      handle->priority = static_cast<uint32_t>(value);
      return ACL_SUCCESS;
  }
  return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamConfigOpt: argument 'attr' (%d) is not an aclrtStreamConfigAttr",
              static_cast<int>(attr));
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(streamId);
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  *streamId = static_cast<int32_t>(target->trace_id());  // unique per stream, as in the traces
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag) try {
  if (flag != ACL_EVENT_WAIT_DEFAULT) {
    return NotSupported(__func__, "waits on external events (ACL_EVENT_WAIT_EXTERNAL)");
  }
  if (timeout != 0) return NotSupported(__func__, "timed waits: Canopy's waits last until the event is recorded");
  return aclrtStreamWaitEvent(stream, event);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamWaitEventWithTimeout(aclrtStream /*stream*/, aclrtEvent /*event*/, int32_t /*timeout*/) try {
  return NotSupported(__func__, "timed waits: Canopy's waits last until the event is recorded");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  if (mode == ACL_CONTINUE_ON_FAILURE) return ACL_SUCCESS;
  if (mode == ACL_STOP_ON_FAILURE) {
    return NotSupported(__func__, "ACL_STOP_ON_FAILURE: a Canopy stream goes on after a failed task");
  }
  return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode: argument 'mode' (%llu) is not a failure mode",
              static_cast<unsigned long long>(mode));
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue* value) try {
  CANOPY_REQUIRE_NOT_NULL(value);
  if (stmAttrType == ACL_STREAM_ATTR_FAILURE_MODE) return aclrtSetStreamFailureMode(stream, value->failureMode);
  return NotSupported(__func__, "stream attributes other than the failure mode cannot be changed");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue* value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(value);
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
      value->failureMode = ACL_CONTINUE_ON_FAILURE;
      return ACL_SUCCESS;
    case ACL_STREAM_ATTR_PRIORITY:
      value->streamPriority = target->priority();
      return ACL_SUCCESS;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
      return NotSupported(__func__, "overflow checks, custom tags and cached op info of streams");
  }
  return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetStreamAttribute: argument 'stmAttrType' (%d) is not an aclrtStreamAttr",
              static_cast<int>(stmAttrType));
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetStreamAvailableNum(uint32_t* /*streamCount*/) try {
  return NotSupported(__func__, "Canopy's streams are host objects without a fixed number of hardware slots");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtRegStreamStateCallback(const char* /*regName*/, aclrtStreamStateCallback /*callback*/,
                                     void* /*args*/) try {
  return NotSupported(__func__, "stream state callbacks are not supported");
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
