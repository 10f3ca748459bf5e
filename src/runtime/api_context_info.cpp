// Context queries and system parameters.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "not supported";

}  // namespace

extern "C" {

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt /*opt*/, int64_t /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt /*opt*/, int64_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream * /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetPrimaryCtxState(int32_t /*deviceId*/, uint32_t * /*flags*/, int32_t * /*active*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCtxGetFloatOverflowAddr(void ** /*overflowAddr*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
