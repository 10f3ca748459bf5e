// Exception-info callbacks and error repair (aclrtExceptionInfoCallbackRegister, aclrtGet*FromExceptionInfo, UCE
// repair).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "exception-info callbacks and error repair are not supported; a failed task is reported by the synchronising call "
    "and aclGetRecentErrMsg";

}  // namespace

extern "C" {

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback /*callback*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback /*callback*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback /*callback*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo * /*info*/) try {
  NotSupported(__func__, kReason);
  return 0;
}
CANOPY_C_BOUNDARY(0)

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo * /*info*/) try {
  NotSupported(__func__, kReason);
  return 0;
}
CANOPY_C_BOUNDARY(0)

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo * /*info*/) try {
  NotSupported(__func__, kReason);
  return 0;
}
CANOPY_C_BOUNDARY(0)

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo * /*info*/) try {
  NotSupported(__func__, kReason);
  return 0;
}
CANOPY_C_BOUNDARY(0)

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo * /*info*/) try {
  NotSupported(__func__, kReason);
  return 0;
}
CANOPY_C_BOUNDARY(0)

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo * /*info*/, void ** /*devArgsPtr*/,
                                       uint32_t * /*devArgsLen*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo * /*info*/, aclrtFuncHandle * /*func*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle /*binHandle*/, aclrtOpExceptionCallback /*callback*/,
                                         void * /*userData*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetErrorVerbose(int32_t /*deviceId*/, aclrtErrorInfo * /*errorInfo*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtRepairError(int32_t /*deviceId*/, const aclrtErrorInfo * /*errorInfo*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetMemUceInfo(int32_t /*deviceId*/, aclrtMemUceInfo * /*memUceInfoArray*/, size_t /*arraySize*/,
                            size_t * /*retSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemUceRepair(int32_t /*deviceId*/, aclrtMemUceInfo * /*memUceInfoArray*/, size_t /*arraySize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
