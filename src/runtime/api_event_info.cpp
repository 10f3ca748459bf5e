// Event record flags, wait status, timestamps, ids and IPC handles.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "event ids, timestamps, wait status, counts and IPC handles of hardware events are not supported";

}  // namespace

extern "C" {

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) try {
  if (flag != ACL_EVENT_RECORD_DEFAULT) {
    return NotSupported(__func__, "records of external events (ACL_EVENT_RECORD_EXTERNAL)");
  }
  return aclrtRecordEvent(event, stream);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtQueryEventWaitStatus(aclrtEvent /*event*/, aclrtEventWaitStatus * /*status*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtEventGetTimestamp(aclrtEvent /*event*/, uint64_t * /*timestamp*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetEventId(aclrtEvent /*event*/, uint32_t * /*eventId*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetEventAvailNum(uint32_t * /*eventCount*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtIpcGetEventHandle(aclrtEvent /*event*/, aclrtIpcEventHandle * /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle /*handle*/, aclrtEvent * /*event*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
