// Sharing memory between processes and devices: shareable handles, IPC memory, access flags and link selection.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "sharing device memory between processes is not supported: a Canopy device lives inside one process";

}  // namespace

extern "C" {

aclError aclrtReserveMemAddressNoUCMemory(void ** /*virPtr*/, size_t /*size*/, size_t /*alignment*/,
                                          void * /*expectPtr*/, uint64_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemMapNoAccess(void * /*virPtr*/, size_t /*size*/, size_t /*offset*/, aclrtDrvMemHandle /*handle*/,
                             uint64_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemSetAccess(void * /*virPtr*/, size_t /*size*/, aclrtMemAccessDesc * /*desc*/, size_t /*count*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemGetAccess(void * /*virPtr*/, aclrtMemLocation * /*location*/, uint64_t * /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemRetainAllocationHandle(void * /*virPtr*/, aclrtDrvMemHandle * /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle /*handle*/, aclrtPhysicalMemProp * /*prop*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle /*handle*/, aclrtMemHandleType /*handleType*/,
                                         uint64_t /*flags*/, uint64_t * /*shareableHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle /*handle*/, uint64_t /*flags*/,
                                           aclrtMemSharedHandleType /*shareType*/, void * /*shareableHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemImportFromShareableHandle(uint64_t /*shareableHandle*/, int32_t /*deviceId*/,
                                           aclrtDrvMemHandle * /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemImportFromShareableHandleV2(void * /*shareableHandle*/, aclrtMemSharedHandleType /*shareType*/,
                                             uint64_t /*flags*/, aclrtDrvMemHandle * /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemSetPidToShareableHandle(uint64_t /*shareableHandle*/, int32_t * /*pid*/, size_t /*pidNum*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemSetPidToShareableHandleV2(void * /*shareableHandle*/, aclrtMemSharedHandleType /*shareType*/,
                                           int32_t * /*pid*/, size_t /*pidNum*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemP2PMap(void * /*devPtr*/, size_t /*size*/, int32_t /*dstDevId*/, uint64_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemMapSelectedLink(void * /*virPtrDst*/, size_t /*size*/, void * /*virPtrSrc*/,
                                 uint32_t /*linkIdx*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemMapSetLink(aclrtDrvMemHandle /*handle*/, aclrtMemLinkType /*adviceLink*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtIpcMemGetExportKey(void * /*devPtr*/, size_t /*size*/, char * /*key*/, size_t /*len*/,
                                 uint64_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtIpcMemClose(const char * /*key*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtIpcMemImportByKey(void ** /*devPtr*/, const char * /*key*/, uint64_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtIpcMemSetImportPid(const char * /*key*/, int32_t * /*pid*/, size_t /*num*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtIpcMemSetAttr(const char * /*key*/, aclrtIpcMemAttrType /*type*/, uint64_t /*attr*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtIpcMemImportPidInterServer(const char * /*key*/, aclrtServerPid * /*serverPids*/, size_t /*num*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
