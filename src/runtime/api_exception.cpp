// Exception-info callbacks (aclrtExceptionInfoCallbackRegister and the
// aclrtGet*FromExceptionInfo readers: src/runtime/exception_callbacks.h), and
// the kernel arguments and error repair of Ascend hardware, which are not supported.
#include "api_common.h"
#include "common/c_boundary.h"
#include "exception_callbacks.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char* kReason =
    "kernel arguments of a failed task and the repair of hardware (UCE) errors are not supported: Canopy launches no "
    "device kernels and has no device memory errors to repair";

// A field of `info`; 0xFFFFFFFF (no such id) and a message for a null info.
uint32_t Field(const char* function, const aclrtExceptionInfo* info, uint32_t rtExceptionInfo::*field) {
  if (info == nullptr) {
    SetRecentErrorF("%s: argument 'info' is null", function);
    return 0xFFFFFFFFU;
  }
  return info->*field;
}

}  // namespace

extern "C" {

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) try {
  ExceptionCallbacks::Set(callback);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) try {
  CANOPY_REQUIRE_NOT_NULL(callback);
  if (!ExceptionCallbacks::Register(callback)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackRegister: the callback is already registered");
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) try {
  CANOPY_REQUIRE_NOT_NULL(callback);
  if (!ExceptionCallbacks::Unregister(callback)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackUnregister: the callback is not registered");
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::task_id);
}
CANOPY_C_BOUNDARY(0xFFFFFFFFU)

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::stream_id);
}
CANOPY_C_BOUNDARY(0xFFFFFFFFU)

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::thread_id);
}
CANOPY_C_BOUNDARY(0xFFFFFFFFU)

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::device_id);
}
CANOPY_C_BOUNDARY(0xFFFFFFFFU)

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::error_code);
}
CANOPY_C_BOUNDARY(0xFFFFFFFFU)

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* /*info*/, void** /*devArgsPtr*/,
                                       uint32_t* /*devArgsLen*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* /*info*/, aclrtFuncHandle* /*func*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle /*binHandle*/, aclrtOpExceptionCallback /*callback*/,
                                         void* /*userData*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetErrorVerbose(int32_t /*deviceId*/, aclrtErrorInfo* /*errorInfo*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtRepairError(int32_t /*deviceId*/, const aclrtErrorInfo* /*errorInfo*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetMemUceInfo(int32_t /*deviceId*/, aclrtMemUceInfo* /*memUceInfoArray*/, size_t /*arraySize*/,
                            size_t* /*retSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemUceRepair(int32_t /*deviceId*/, aclrtMemUceInfo* /*memUceInfoArray*/, size_t /*arraySize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
