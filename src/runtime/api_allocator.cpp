// External allocators registered for streams (acl_rt_allocator.h).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "external allocators registered for streams are not supported: Canopy's aclnn operators take their workspace from "
    "the caller";

}  // namespace

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) try {
  NotSupported(__func__, kReason);
  return nullptr;
}
CANOPY_C_BOUNDARY(nullptr)

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc /*allocatorDesc*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc /*allocatorDesc*/, aclrtAllocator /*allocator*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc /*allocatorDesc*/, aclrtAllocatorAllocFunc /*func*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc /*allocatorDesc*/, aclrtAllocatorFreeFunc /*func*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc /*allocatorDesc*/,
                                                aclrtAllocatorAllocAdviseFunc /*func*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc /*allocatorDesc*/,
                                                     aclrtAllocatorGetAddrFromBlockFunc /*func*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtAllocatorRegister(aclrtStream /*stream*/, aclrtAllocatorDesc /*allocatorDesc*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtAllocatorGetByStream(aclrtStream /*stream*/, aclrtAllocatorDesc * /*allocatorDesc*/,
                                   aclrtAllocator * /*allocator*/, aclrtAllocatorAllocFunc * /*allocFunc*/,
                                   aclrtAllocatorFreeFunc * /*freeFunc*/,
                                   aclrtAllocatorAllocAdviseFunc * /*allocAdviseFunc*/,
                                   aclrtAllocatorGetAddrFromBlockFunc * /*getAddrFromBlockFunc*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtAllocatorUnregister(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
