// Memory allocation options, pointer attributes, usage, cache maintenance and host registration.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "not supported";

}  // namespace

extern "C" {

aclError aclrtMallocWithCfg(void ** /*devPtr*/, size_t /*size*/, aclrtMemMallocPolicy /*policy*/,
                            aclrtMallocConfig * /*cfg*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMallocForTaskScheduler(void ** /*devPtr*/, size_t /*size*/, aclrtMemMallocPolicy /*policy*/,
                                     aclrtMallocConfig * /*cfg*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFreeWithDevSync(void * /*devPtr*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemFlush(void * /*devPtr*/, size_t /*size*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemInvalidate(void * /*devPtr*/, size_t /*size*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetMemUsageInfo(int32_t /*deviceId*/, aclrtMemUsageInfo * /*memUsageInfo*/, size_t /*inputNum*/,
                              size_t * /*outputNum*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtPointerGetAttributes(const void * /*ptr*/, aclrtPtrAttributes * /*attributes*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCheckMemType(void ** /*addrList*/, uint32_t /*size*/, uint32_t /*memType*/, uint32_t * /*checkResult*/,
                           uint32_t /*reserve*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemGetAddressRange(void * /*ptr*/, void ** /*pbase*/, size_t * /*psize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMallocHostWithCfg(void ** /*ptr*/, uint64_t /*size*/, aclrtMallocConfig * /*cfg*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFreeHostWithDevSync(void * /*hostPtr*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostRegister(void * /*ptr*/, uint64_t /*size*/, aclrtHostRegisterType /*type*/, void ** /*devPtr*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostRegisterV2(void * /*ptr*/, uint64_t /*size*/, uint32_t /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostGetDevicePointer(void * /*pHost*/, void ** /*pDevice*/, uint32_t /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostUnregister(void * /*ptr*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostMemMapCapabilities(uint32_t /*deviceId*/, aclrtHacType /*hacType*/,
                                     aclrtHostMemMapCapability * /*capabilities*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
