// Notifies: cross-stream signals whose wait may precede the record (aclrtCreateNotify,
// aclrtRecordNotify, aclrtWaitAndResetNotify) and their counting and inter-process variants.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "a notify's wait may be queued before its record, which Canopy's event-based stream ordering cannot express; use "
    "events (aclrtRecordEvent, aclrtStreamWaitEvent)";

}  // namespace

extern "C" {

aclError aclrtCreateNotify(aclrtNotify * /*notify*/, uint64_t /*flag*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtDestroyNotify(aclrtNotify /*notify*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtRecordNotify(aclrtNotify /*notify*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtWaitAndResetNotify(aclrtNotify /*notify*/, aclrtStream /*stream*/, uint32_t /*timeout*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetNotifyId(aclrtNotify /*notify*/, uint32_t * /*notifyId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtNotifyBatchReset(aclrtNotify * /*notifies*/, size_t /*num*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtNotifyGetExportKey(aclrtNotify /*notify*/, char * /*key*/, size_t /*len*/, uint64_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtNotifyImportByKey(aclrtNotify * /*notify*/, const char * /*key*/, uint64_t /*flags*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtNotifySetImportPid(aclrtNotify /*notify*/, int32_t * /*pid*/, size_t /*num*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtNotifySetImportPidInterServer(aclrtNotify /*notify*/, aclrtServerPid * /*serverPids*/,
                                            size_t /*num*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCntNotifyCreate(aclrtCntNotify * /*cntNotify*/, uint64_t /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCntNotifyDestroy(aclrtCntNotify /*cntNotify*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtCntNotifyRecord(aclrtCntNotify /*cntNotify*/, aclrtStream /*stream*/,
                              aclrtCntNotifyRecordInfo * /*info*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify /*cntNotify*/, aclrtStream /*stream*/,
                                       aclrtCntNotifyWaitInfo * /*info*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCntNotifyReset(aclrtCntNotify /*cntNotify*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCntNotifyGetId(aclrtCntNotify /*cntNotify*/, uint32_t * /*notifyId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
