// Core-count resource limits of devices and streams (aclrt*ResLimit, aclrtDeviceSetLimit).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "AI Core and vector core limits are not supported: a Canopy device has no cores to partition";

}  // namespace

extern "C" {

aclError aclrtGetDeviceResLimit(int32_t /*deviceId*/, aclrtDevResLimitType /*type*/, uint32_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetDeviceResLimit(int32_t /*deviceId*/, aclrtDevResLimitType /*type*/, uint32_t /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtResetDeviceResLimit(int32_t /*deviceId*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetStreamResLimit(aclrtStream /*stream*/, aclrtDevResLimitType /*type*/, uint32_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetStreamResLimit(aclrtStream /*stream*/, aclrtDevResLimitType /*type*/, uint32_t /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtResetStreamResLimit(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtUseStreamResInCurrentThread(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType /*type*/, uint32_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceSetLimit(aclrtDeviceLimit /*limit*/, size_t /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetLimit(aclrtDeviceLimit /*limit*/, size_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
