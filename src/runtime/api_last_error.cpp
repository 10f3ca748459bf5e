// The calling thread's last error code (aclrtGetLastError, aclrtPeekAtLastError).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char* kReason = "not supported";

}  // namespace

extern "C" {

aclError aclrtPeekAtLastError(aclrtLastErrLevel /*level*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetLastError(aclrtLastErrLevel /*level*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
