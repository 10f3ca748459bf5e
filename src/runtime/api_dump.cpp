// Data dump of model and operator inputs and outputs (aclmdlInitDump, aclmdlSetDump, aclmdlFinalizeDump).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char* kReason = "data dump is not supported; set CANOPY_VERBOSE to trace operators";

}  // namespace

extern "C" {

aclError aclmdlInitDump(void) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlSetDump(const char* /*dumpCfgPath*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclmdlFinalizeDump(void) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
