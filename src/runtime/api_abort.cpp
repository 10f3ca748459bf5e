// Aborting and stopping work already queued on a device or stream.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "aborting queued or running tasks is not supported; synchronise, or destroy the stream with "
    "aclrtDestroyStreamForce";

}  // namespace

extern "C" {

aclError aclrtDeviceTaskAbort(int32_t /*deviceId*/, uint32_t /*timeout*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetDeviceTaskAbortCallback(const char * /*regName*/, aclrtDeviceTaskAbortCallback /*callback*/,
                                         void * /*args*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamAbort(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtStreamStop(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
