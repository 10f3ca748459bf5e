// The calling thread's last runtime error code (aclrtGetLastError,
// aclrtPeekAtLastError): the code of the thread's most recent failed runtime
// call, including an asynchronous failure reported by a synchronisation.
#include "api_common.h"
#include "common/c_boundary.h"

using namespace canopy::runtime;

namespace {

aclError LastError(const char* function, aclrtLastErrLevel level, bool clear) {
  if (level != ACL_RT_THREAD_LEVEL) {
    // Reported without touching the code being asked about.
    SetRecentErrorF("%s: argument 'level' (%d) is not an aclrtLastErrLevel (only ACL_RT_THREAD_LEVEL)", function,
                    static_cast<int>(level));
    return ACL_ERROR_INVALID_PARAM;
  }
  return LastErrorCode(clear);
}

}  // namespace

extern "C" {

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) try { return LastError(__func__, level, /*clear=*/false); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetLastError(aclrtLastErrLevel level) try { return LastError(__func__, level, /*clear=*/true); }
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
