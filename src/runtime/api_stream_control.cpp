// Stream control flow and task bookkeeping of device schedulers (stream activation and switching, persistent tasks,
// task updates, overflow switches).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "stream control flow and device task bookkeeping are not supported: Canopy's streams run their tasks in order on "
    "the host";

}  // namespace

extern "C" {

aclError aclrtSetStreamOverflowSwitch(aclrtStream /*stream*/, uint32_t /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetStreamOverflowSwitch(aclrtStream /*stream*/, uint32_t * /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtPersistentTaskClean(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtActiveStream(aclrtStream /*activeStream*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSwitchStream(void * /*leftValue*/, aclrtCondition /*cond*/, void * /*rightValue*/,
                           aclrtCompareDataType /*dataType*/, aclrtStream /*trueStream*/, aclrtStream /*falseStream*/,
                           aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetThreadLastTaskId(uint32_t * /*taskId*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtCacheLastTaskOpInfo(const void *const /*infoPtr*/, const size_t /*infoSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCacheLastTaskExtendInfo(const char *const /*extendInfoPtr*/, const size_t /*infoSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtTaskUpdateAsync(aclrtStream /*taskStream*/, uint32_t /*taskId*/, aclrtTaskUpdateInfo * /*info*/,
                              aclrtStream /*execStream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
