// Model runtime instances built or edited task by task (aclmdlRIBuild*, task and condition handles, capture task groups
// and updates).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "building or editing a model task by task is not supported; capture a stream with aclmdlRICaptureBegin";

}  // namespace

extern "C" {

aclError aclmdlRICaptureToModelRIBegin(aclrtStream /*stream*/, aclmdlRI /*modelRI*/, aclmdlRICaptureMode /*mode*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream /*stream*/, aclrtTaskGrp * /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream /*stream*/, aclrtTaskGrp /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIAbort(aclmdlRI /*modelRI*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIDebugJsonPrint(aclmdlRI /*modelRI*/, const char * /*path*/, uint32_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI /*modelRI*/, aclrtCallback /*func*/, void * /*userData*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI /*modelRI*/, aclrtCallback /*func*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIBuildBegin(aclmdlRI * /*modelRI*/, uint32_t /*flag*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIBindStream(aclmdlRI /*modelRI*/, aclrtStream /*stream*/, uint32_t /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIEndTask(aclmdlRI /*modelRI*/, aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIBuildEnd(aclmdlRI /*modelRI*/, void * /*reserve*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIUnbindStream(aclmdlRI /*modelRI*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRISetName(aclmdlRI /*modelRI*/, const char * /*name*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIGetName(aclmdlRI /*modelRI*/, uint32_t /*maxLen*/, char * /*name*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIGetId(aclmdlRI /*modelRI*/, uint32_t * /*modelRIId*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIUpdate(aclmdlRI /*modelRI*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIGetStreams(aclmdlRI /*modelRI*/, aclrtStream * /*streams*/, uint32_t * /*numStreams*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIGetTasksByStream(aclrtStream /*stream*/, aclmdlRITask * /*tasks*/, uint32_t * /*numTasks*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRITaskGetType(aclmdlRITask /*task*/, aclmdlRITaskType * /*type*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRITaskGetSeqId(aclmdlRITask /*task*/, uint32_t * /*id*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRITaskGetParams(aclmdlRITask /*task*/, aclmdlRITaskParams * /*params*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRITaskSetParams(aclmdlRITask /*task*/, aclmdlRITaskParams * /*params*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask /*task*/, aclrtLaunchKernelAttrId /*attrId*/,
                                        aclrtLaunchKernelAttrValue * /*attrValue*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRITaskDisable(aclmdlRITask /*task*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICondHandleCreate(aclmdlRI /*modelRI*/, uint32_t /*defaultLaunchValue*/,
                                  aclmdlRICondHandleFlag /*flag*/, aclmdlRICondHandle * /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle /*handle*/, uint64_t ** /*ptr*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams /*params*/, aclrtStream /*stream*/, uint32_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
