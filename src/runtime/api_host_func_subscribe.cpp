// Host functions run by a subscribed thread (aclrtSubscribeHostFunc, aclrtProcessHostFunc).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char* kReason =
    "subscribed host-function threads are not supported; use aclrtLaunchHostFunc, which runs the function on its own";

}  // namespace

extern "C" {

aclError aclrtSubscribeHostFunc(uint64_t /*hostFuncThreadId*/, aclrtStream /*exeStream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtProcessHostFunc(int32_t /*timeout*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtUnSubscribeHostFunc(uint64_t /*hostFuncThreadId*/, aclrtStream /*exeStream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
