// Process snapshots (backup and restore of device state).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "process snapshots are not supported";

}  // namespace

extern "C" {

aclError aclrtSnapShotProcessLock(int /*pid*/, void * /*reserve*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSnapShotProcessUnlock(int /*pid*/, void * /*reserve*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSnapShotProcessBackup(int /*pid*/, aclrtSnapShotBackupArgs * /*args*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSnapShotProcessRestore(int /*pid*/, aclrtSnapShotRestoreArgs * /*args*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage /*stage*/, aclrtSnapShotCallBack /*callback*/,
                                       void * /*args*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage /*stage*/, aclrtSnapShotCallBack /*callback*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
