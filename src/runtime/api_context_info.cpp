// Context queries: the current context's default stream and the state of a
// device's primary context.
#include <mutex>

#include "api_common.h"
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

extern "C" {

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(stream);
  const auto context = Runtime::Get().current_context();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCtxGetCurrentDefaultStream: no current context (call aclrtSetDevice)");
  }
  *stream = context->default_stream()->handle();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, deviceId, device));
  if (flags == nullptr && active == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetPrimaryCtxState: arguments 'flags' and 'active' are both null");
  }
  std::lock_guard lock(Runtime::Get().lifecycle_mutex);
  if (flags != nullptr) *flags = 0;  // primary contexts take no creation flags
  if (active != nullptr) *active = device->primary_context != nullptr ? 1 : 0;  // between aclrtSetDevice and reset
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCtxGetFloatOverflowAddr(void** /*overflowAddr*/) try {
  return NotSupported(__func__, "the CPU has no overflow status register to expose");
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
