// Operator wait and execution timeouts.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "not supported";

}  // namespace

extern "C" {

aclError aclrtSetOpWaitTimeout(uint32_t /*timeout*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetOpExecuteTimeOut(uint32_t /*timeout*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t /*timeout*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetOpExecuteTimeOutV2(uint64_t /*timeout*/, uint64_t * /*actualTimeout*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetOpTimeOutInterval(uint64_t * /*interval*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetOpExecuteTimeout(uint32_t *const /*timeoutMs*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
