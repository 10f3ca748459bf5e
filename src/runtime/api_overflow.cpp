// Floating-point overflow status registers.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "overflow status registers are not supported: the CPU has no such register; inf and nan propagate in the results";

}  // namespace

extern "C" {

aclError aclrtGetOverflowStatus(void * /*outputAddr*/, size_t /*outputSize*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtResetOverflowStatus(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetFloatOverflowStatus(void * /*outputAddr*/, uint64_t /*outputSize*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtResetFloatOverflowStatus(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtNpuGetFloatOverFlowStatus(void * /*outputAddr*/, uint64_t /*outputSize*/, uint32_t /*checkMode*/,
                                        aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtNpuClearFloatOverFlowStatus(uint32_t /*checkMode*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
