// Device identity, attributes and capabilities: what a Canopy device reports
// about itself (its CPUs, memory and caches) and the ids it answers to.
#include <unistd.h>

#include <cstring>
#include <mutex>

#include "api_common.h"
#include "common/c_boundary.h"
#include "common/cpu_quota.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

// A Canopy device computes on the CPUs this process may use (its affinity mask,
// capped by a cgroup CPU limit): they are its cores, whichever kind (AI Core,
// cube, vector) a client asks about.
int64_t CoreCount() { return canopy::UsableCpuCount(); }

// The CPU's last-level cache plays the part of the NPU's L2 (the cache all
// cores share); 0 when the system does not say.
int64_t LastLevelCacheBytes() {
  for (const int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    if (const long bytes = sysconf(name); bytes > 0) return bytes;
  }
  return 0;
}

aclError ResolveDeviceId(const char* function, int64_t device_id, std::shared_ptr<Device>& device) {
  if (device_id < 0 || device_id > INT32_MAX) {
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %lld does not exist", function,
                static_cast<long long>(device_id));
  }
  return ResolveDevice(function, static_cast<int32_t>(device_id), device);
}

// Logical, user and physical device ids are one and the same on Canopy: no
// container remaps them and no device is split.
aclError SameDeviceId(const char* function, int32_t from, int32_t* to) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (to == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: the output argument is null", function);
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(function, from, device));
  *to = from;
  return ACL_SUCCESS;
}

// The optional CANN capabilities Canopy has: IEEE inf/nan results and bf16
// operators. It compiles nothing just in time (ACL_CANN_ATTR_JIT_COMPILE).
constexpr aclCannAttr kCannAttributes[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16};

}  // namespace

extern "C" {

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) try {
  CANOPY_REQUIRE_NOT_NULL(cannAttrList);
  CANOPY_REQUIRE_NOT_NULL(num);
  *cannAttrList = kCannAttributes;
  *num = std::size(kCannAttributes);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) try {
  CANOPY_REQUIRE_NOT_NULL(value);
  if (cannAttr < ACL_CANN_ATTR_INF_NAN || cannAttr > ACL_CANN_ATTR_JIT_COMPILE) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclGetCannAttribute: argument 'cannAttr' (%d) is not an aclCannAttr",
                static_cast<int>(cannAttr));
  }
  *value = 0;
  for (const aclCannAttr supported : kCannAttributes) {
    if (supported == cannAttr) *value = 1;
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(value);
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDeviceId(__func__, deviceId, device));
  switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
      *value = CoreCount();
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
      *value = LastLevelCacheBytes();
      return ACL_SUCCESS;
    default:
      return Fail(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: argument 'deviceInfo' (%d) is not an aclDeviceInfo",
                  static_cast<int>(deviceInfo));
  }
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(deviceStatus);
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, deviceId, device));
  // A device is the host's CPUs: while the process runs, it works.
  *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetTsDevice(aclrtTsId /*tsId*/) try {
  return NotSupported(__func__, "a Canopy device has a single task scheduler, which cannot be chosen");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDeviceUtilizationRate(int32_t /*deviceId*/, aclrtUtilizationInfo* /*utilizationInfo*/) try {
  return NotSupported(__func__, "per-core utilisation is not measured on a CPU device");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(value);
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDeviceId(__func__, deviceId, device));
  switch (attr) {
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
      *value = CoreCount();
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
      *value = 0;  // no AI CPU: host functions run on host threads
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
      *value = static_cast<int64_t>(device->total_memory());
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
      *value = LastLevelCacheBytes();
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
      *value = device->id();
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_IS_VIRTUAL:
      *value = 0;  // not a slice of a physical device
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_WARP_SIZE:
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_MAX_GRID_DIM_X:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
    case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
    case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
      return NotSupported(__func__, "SIMT kernel limits: Canopy launches no device kernels");
    case ACL_DEV_ATTR_SMP_ID:
    case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
    case ACL_DEV_ATTR_MAINBOARD_ID:
    case ACL_DEV_ATTR_HD_CONNECT_TYPE:
    case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
    case ACL_DEV_ATTR_NPU_ARCH:
      return NotSupported(__func__, "board, super-pod and architecture attributes of Ascend hardware");
  }
  return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceInfo: argument 'attr' (%d) is not an aclrtDevAttr",
              static_cast<int>(attr));
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t* value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(value);
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, deviceId, device));
  switch (devFeatureType) {
    // Task updates by the TS CPU and cross-device memory-queue events need
    // Ascend's schedulers; Canopy's devices have neither feature.
    case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV:
    case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV:
      *value = ACL_DEV_FEATURE_NOT_SUPPORT;
      return ACL_SUCCESS;
  }
  return Fail(ACL_ERROR_INVALID_PARAM,
              "aclrtGetDeviceCapability: argument 'devFeatureType' (%d) is not an aclrtDevFeatureType",
              static_cast<int>(devFeatureType));
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(uuid);
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, deviceId, device));
  // Unique among the devices and stable across runs: "canopy-dev" and the id.
  std::memset(uuid->bytes, 0, sizeof(uuid->bytes));
  std::memcpy(uuid->bytes, "canopy-dev", 10);
  const uint32_t id = static_cast<uint32_t>(deviceId);
  for (int i = 0; i < 4; ++i) uuid->bytes[12 + i] = static_cast<char>((id >> (8 * (3 - i))) & 0xFFU);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetPCIBusId(int32_t /*deviceId*/, char* /*pciBusId*/, int32_t /*len*/) try {
  return NotSupported(__func__, "a Canopy device is not a PCI device");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetByPCIBusId(const char* /*pciBusId*/, int32_t* /*deviceId*/) try {
  return NotSupported(__func__, "a Canopy device is not a PCI device");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* /*capabilities*/, const aclrtAtomicOperation* /*operations*/,
                                              const uint32_t /*count*/, int32_t /*deviceId*/) try {
  return NotSupported(__func__, "atomic operations of device kernels: Canopy launches no device kernels");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* /*capabilities*/, const aclrtAtomicOperation* /*operations*/,
                                             const uint32_t /*count*/, int32_t /*srcDeviceId*/,
                                             int32_t /*dstDeviceId*/) try {
  return NotSupported(__func__, "atomic operations of device kernels: Canopy launches no device kernels");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDevicesTopo(uint32_t /*deviceId*/, uint32_t /*otherDeviceId*/, uint64_t* /*value*/) try {
  return NotSupported(__func__, "Canopy's devices share the host's memory and have no interconnect (HCCS, PCIe)");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(status);
  std::shared_ptr<Device> device;
  std::shared_ptr<Device> peer;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, deviceId, device));
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, peerDeviceId, peer));
  // 1 once aclrtDeviceEnablePeerAccess enabled it from deviceId, else 0.
  std::lock_guard lock(Runtime::Get().lifecycle_mutex);
  *status = device->peers_enabled.count(peerDeviceId) != 0 ? 1 : 0;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceGetBareTgid(int32_t* pid) try {
  CANOPY_REQUIRE_NOT_NULL(pid);
  // The device runs inside this process: its thread group is the process.
  *pid = static_cast<int32_t>(getpid());
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId) try {
  return SameDeviceId(__func__, userDevid, logicDevId);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid) try {
  return SameDeviceId(__func__, logicDevId, userDevid);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId) try {
  return SameDeviceId(__func__, phyDevId, logicDevId);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId) try {
  return SameDeviceId(__func__, logicDevId, phyDevId);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId) try {
  return SameDeviceId(__func__, phyDevId, userDevId);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId) try {
  return SameDeviceId(__func__, userDevId, phyDevId);
}
CANOPY_C_BOUNDARY_ACL

// Canopy computes in IEEE arithmetic: an overflow gives inf and an invalid
// operation nan (ACL_RT_OVERFLOW_MODE_INFNAN). Saturating to the largest
// finite value is a mode it does not have.
aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) try {
  CANOPY_REQUIRE_INIT();
  if (mode == ACL_RT_OVERFLOW_MODE_INFNAN) return ACL_SUCCESS;
  if (mode == ACL_RT_OVERFLOW_MODE_SATURATION) {
    return NotSupported(__func__, "saturation mode (ACL_RT_OVERFLOW_MODE_SATURATION): results follow IEEE inf/nan");
  }
  return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSetDeviceSatMode: argument 'mode' (%d) is not an overflow mode",
              static_cast<int>(mode));
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(mode);
  *mode = ACL_RT_OVERFLOW_MODE_INFNAN;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtRegDeviceStateCallback(const char* /*regName*/, aclrtDeviceStateCallback /*callback*/,
                                     void* /*args*/) try {
  return NotSupported(__func__, "device state callbacks are not supported");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(socVersion);
  CANOPY_REQUIRE_NOT_NULL(canCompatible);
  // Canopy runs what is built for the SoC it presents (CANOPY_SOC_NAME), and
  // nothing built for another one.
  *canCompatible = Runtime::Get().config().soc_name == socVersion ? 1 : 0;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceL2CacheFlush(void* /*rsv*/) try {
  return NotSupported(__func__, "the CPU's caches are coherent and not flushed on request");
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
