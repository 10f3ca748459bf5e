// Operator wait and execution timeouts. Canopy never times out a queued task
// or a running operator: a wait lasts until its event is recorded and an
// operator runs to its end. So the one timeout it has is 0, "never", which
// clients set and read back; any other value would promise an abort Canopy
// does not perform, and is refused as not supported.
#include "api_common.h"
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char* kNoTimeouts = "Canopy never times out tasks or operators; only 0 (no timeout) is accepted";

aclError SetNoTimeout(const char* function, uint64_t timeout) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  return timeout == 0 ? ACL_SUCCESS : NotSupported(function, kNoTimeouts);
}

}  // namespace

extern "C" {

aclError aclrtSetOpWaitTimeout(uint32_t timeout) try { return SetNoTimeout(__func__, timeout); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) try { return SetNoTimeout(__func__, timeout); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) try { return SetNoTimeout(__func__, timeout); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) try {
  CANOPY_REQUIRE_NOT_NULL(actualTimeout);
  CANOPY_RETURN_IF_ERROR(SetNoTimeout(__func__, timeout));
  *actualTimeout = 0;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetOpTimeOutInterval(uint64_t* /*interval*/) try {
  return NotSupported(__func__, "Canopy has no operator timeout, so no timeout granularity");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(timeoutMs);
  *timeoutMs = 0;  // never
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
