// aclInit, aclFinalize and aclGetRecentErrMsg.
#include "api_common.h"
#include "common/c_boundary.h"

using namespace canopy::runtime;

extern "C" {

aclError aclInit(const char* /*configPath: dump/profiling configuration, not used*/) try {
  return Runtime::Get().Initialize();
}
CANOPY_C_BOUNDARY_ACL

aclError aclFinalize() try {
  // Finalizing drains every stream and joins the host-function threads.
  CANOPY_RETURN_IF_ERROR(CheckNotInsideDrainedWork(__func__, nullptr, nullptr));
  return Runtime::Get().Finalize();
}
CANOPY_C_BOUNDARY_ACL

const char* aclGetRecentErrMsg() try { return TakeRecentError(); }
CANOPY_C_BOUNDARY(nullptr)

}  // extern "C"
