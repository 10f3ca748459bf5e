// Device identity, attributes and capabilities.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "not supported on a CPU device";

}  // namespace

extern "C" {

aclError aclGetCannAttributeList(const aclCannAttr ** /*cannAttrList*/, size_t * /*num*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclGetCannAttribute(aclCannAttr /*cannAttr*/, int32_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclGetDeviceCapability(uint32_t /*deviceId*/, aclDeviceInfo /*deviceInfo*/, int64_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtQueryDeviceStatus(int32_t /*deviceId*/, aclrtDeviceStatus * /*deviceStatus*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetTsDevice(aclrtTsId /*tsId*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDeviceUtilizationRate(int32_t /*deviceId*/, aclrtUtilizationInfo * /*utilizationInfo*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDeviceInfo(uint32_t /*deviceId*/, aclrtDevAttr /*attr*/, int64_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDeviceCapability(int32_t /*deviceId*/, aclrtDevFeatureType /*devFeatureType*/,
                                  int32_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetUuid(int32_t /*deviceId*/, aclrtUuid * /*uuid*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetPCIBusId(int32_t /*deviceId*/, char * /*pciBusId*/, int32_t /*len*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetByPCIBusId(const char * /*pciBusId*/, int32_t * /*deviceId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t * /*capabilities*/, const aclrtAtomicOperation * /*operations*/,
                                              const uint32_t /*count*/, int32_t /*deviceId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t * /*capabilities*/, const aclrtAtomicOperation * /*operations*/,
                                             const uint32_t /*count*/, int32_t /*srcDeviceId*/,
                                             int32_t /*dstDeviceId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDevicesTopo(uint32_t /*deviceId*/, uint32_t /*otherDeviceId*/, uint64_t * /*value*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDevicePeerAccessStatus(int32_t /*deviceId*/, int32_t /*peerDeviceId*/, int32_t * /*status*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetBareTgid(int32_t * /*pid*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetLogicDevIdByUserDevId(const int32_t /*userDevid*/, int32_t *const /*logicDevId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetUserDevIdByLogicDevId(const int32_t /*logicDevId*/, int32_t *const /*userDevid*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t /*phyDevId*/, int32_t *const /*logicDevId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t /*logicDevId*/, int32_t *const /*phyDevId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetUserDevIdByPhyDevId(const int32_t /*phyDevId*/, int32_t *const /*userDevId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetPhyDevIdByUserDevId(const int32_t /*userDevId*/, int32_t *const /*phyDevId*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode /*mode*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode * /*mode*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtRegDeviceStateCallback(const char * /*regName*/, aclrtDeviceStateCallback /*callback*/,
                                     void * /*args*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCheckArchCompatibility(const char * /*socVersion*/, int32_t * /*canCompatible*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceL2CacheFlush(void * /*rsv*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
