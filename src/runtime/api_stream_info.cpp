// Stream creation options, identity, attributes and failure mode.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "not supported";

}  // namespace

extern "C" {

aclError aclrtCreateStreamV2(aclrtStream * /*stream*/, const aclrtStreamConfigHandle * /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void) try {
  NotSupported(__func__, kReason);
  return nullptr;
}
CANOPY_C_BOUNDARY(nullptr)

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle * /*handle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle * /*handle*/, aclrtStreamConfigAttr /*attr*/,
                                 const void * /*attrValue*/, size_t /*valueSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamGetId(aclrtStream /*stream*/, int32_t * /*streamId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamWaitEventWithFlag(aclrtStream /*stream*/, aclrtEvent /*event*/, uint32_t /*timeout*/,
                                      uint32_t /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamWaitEventWithTimeout(aclrtStream /*stream*/, aclrtEvent /*event*/, int32_t /*timeout*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetStreamFailureMode(aclrtStream /*stream*/, uint64_t /*mode*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetStreamAttribute(aclrtStream /*stream*/, aclrtStreamAttr /*stmAttrType*/,
                                 aclrtStreamAttrValue * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetStreamAttribute(aclrtStream /*stream*/, aclrtStreamAttr /*stmAttrType*/,
                                 aclrtStreamAttrValue * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetStreamAvailableNum(uint32_t * /*streamCount*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtRegStreamStateCallback(const char * /*regName*/, aclrtStreamStateCallback /*callback*/,
                                     void * /*args*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
