// Device identity, attributes and capabilities (src/runtime/api_device_info.cpp).
// The binary runs with CANOPY_DEVICE_COUNT=2 and CANOPY_DEVICE_MEMORY=1G.
#include <sched.h>
#include <unistd.h>

#include <cstring>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

constexpr int64_t kDeviceMemory = int64_t{1} << 30;

int64_t CpusOfThisProcess() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  return CPU_COUNT(&set);
}

TEST(DeviceInfo, CoresMemoryAndCache) {
  const int64_t cpus = CpusOfThisProcess();
  for (uint32_t device = 0; device < 2; ++device) {
    int64_t value = -1;
    for (const aclrtDevAttr attr :
         {ACL_DEV_ATTR_AICORE_CORE_NUM, ACL_DEV_ATTR_CUBE_CORE_NUM, ACL_DEV_ATTR_VECTOR_CORE_NUM}) {
      ACL_ASSERT_OK(aclrtGetDeviceInfo(device, attr, &value));
      // The process's CPUs, fewer under a cgroup CPU limit (exactly so in
      // common_cpu_quota_test and, in a real cgroup, runtime_lifecycle_test).
      EXPECT_GE(value, 1) << attr;
      EXPECT_LE(value, cpus) << attr;
      int64_t cores = -1;
      ACL_ASSERT_OK(aclrtGetDeviceInfo(device, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
      EXPECT_EQ(value, cores) << attr << ": every kind of core is one of the CPUs";
    }
    ACL_ASSERT_OK(aclrtGetDeviceInfo(device, ACL_DEV_ATTR_AICPU_CORE_NUM, &value));
    EXPECT_EQ(value, 0);
    ACL_ASSERT_OK(aclrtGetDeviceInfo(device, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &value));
    EXPECT_EQ(value, kDeviceMemory);
    ACL_ASSERT_OK(aclrtGetDeviceInfo(device, ACL_DEV_ATTR_PHY_CHIP_ID, &value));
    EXPECT_EQ(value, device);
    ACL_ASSERT_OK(aclrtGetDeviceInfo(device, ACL_DEV_ATTR_IS_VIRTUAL, &value));
    EXPECT_EQ(value, 0);
    int64_t l2 = -1;
    ACL_ASSERT_OK(aclrtGetDeviceInfo(device, ACL_DEV_ATTR_L2_CACHE_SIZE, &l2));
    const long llc =
        sysconf(_SC_LEVEL3_CACHE_SIZE) > 0 ? sysconf(_SC_LEVEL3_CACHE_SIZE) : sysconf(_SC_LEVEL2_CACHE_SIZE);
    EXPECT_EQ(l2, llc > 0 ? llc : 0);

    // The older query answers the same.
    int64_t cores = -1;
    ACL_ASSERT_OK(aclrtGetDeviceInfo(device, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
    ACL_ASSERT_OK(aclGetDeviceCapability(device, ACL_DEVICE_INFO_AI_CORE_NUM, &value));
    EXPECT_EQ(value, cores);
    ACL_ASSERT_OK(aclGetDeviceCapability(device, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &value));
    EXPECT_EQ(value, cores);
    ACL_ASSERT_OK(aclGetDeviceCapability(device, ACL_DEVICE_INFO_L2_SIZE, &value));
    EXPECT_EQ(value, l2);
  }
}

TEST(DeviceInfo, Rejections) {
  int64_t value = 0;
  ACL_EXPECT_ERROR(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_AICORE_CORE_NUM, &value), ACL_ERROR_RT_INVALID_DEVICEID,
                   "aclrtGetDeviceInfo");
  ACL_EXPECT_ERROR(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtGetDeviceInfo");
  ACL_EXPECT_ERROR(aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(12345), &value), ACL_ERROR_INVALID_PARAM,
                   "aclrtGetDeviceInfo");
  // Attributes of SIMT kernels and of Ascend boards are not supported, loudly.
  ACL_EXPECT_ERROR(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &value), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtGetDeviceInfo: not supported");
  ACL_EXPECT_ERROR(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_SUPER_POD_ID, &value), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtGetDeviceInfo: not supported");
  ACL_EXPECT_ERROR(aclGetDeviceCapability(5, ACL_DEVICE_INFO_L2_SIZE, &value), ACL_ERROR_RT_INVALID_DEVICEID,
                   "aclGetDeviceCapability");
  ACL_EXPECT_ERROR(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &value), ACL_ERROR_INVALID_PARAM,
                   "aclGetDeviceCapability");
  ACL_EXPECT_ERROR(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclGetDeviceCapability");
}

TEST(DeviceInfo, FeatureCapabilitiesAndCannAttributes) {
  int32_t value = -1;
  ACL_ASSERT_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &value));
  EXPECT_EQ(value, ACL_DEV_FEATURE_NOT_SUPPORT);
  value = -1;
  ACL_ASSERT_OK(aclrtGetDeviceCapability(1, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &value));
  EXPECT_EQ(value, ACL_DEV_FEATURE_NOT_SUPPORT);
  ACL_EXPECT_ERROR(aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(7), &value), ACL_ERROR_INVALID_PARAM,
                   "aclrtGetDeviceCapability");
  ACL_EXPECT_ERROR(aclrtGetDeviceCapability(3, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &value),
                   ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetDeviceCapability");

  const aclCannAttr* list = nullptr;
  size_t count = 0;
  ACL_ASSERT_OK(aclGetCannAttributeList(&list, &count));
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(list[0], ACL_CANN_ATTR_INF_NAN);
  EXPECT_EQ(list[1], ACL_CANN_ATTR_BF16);
  for (const auto& [attr, expected] : {std::pair{ACL_CANN_ATTR_INF_NAN, 1}, std::pair{ACL_CANN_ATTR_BF16, 1},
                                       std::pair{ACL_CANN_ATTR_JIT_COMPILE, 0}}) {
    ACL_ASSERT_OK(aclGetCannAttribute(attr, &value));
    EXPECT_EQ(value, expected) << attr;
  }
  ACL_EXPECT_ERROR(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &value), ACL_ERROR_INVALID_PARAM,
                   "aclGetCannAttribute");
  ACL_EXPECT_ERROR(aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr), ACL_ERROR_INVALID_PARAM, "aclGetCannAttribute");
  ACL_EXPECT_ERROR(aclGetCannAttributeList(nullptr, &count), ACL_ERROR_INVALID_PARAM, "aclGetCannAttributeList");
}

TEST(DeviceInfo, StatusUuidAndProcess) {
  aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_ABNORMAL;
  ACL_ASSERT_OK(aclrtQueryDeviceStatus(1, &status));
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);
  ACL_EXPECT_ERROR(aclrtQueryDeviceStatus(2, &status), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtQueryDeviceStatus");
  ACL_EXPECT_ERROR(aclrtQueryDeviceStatus(0, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtQueryDeviceStatus");

  aclrtUuid first{}, second{}, again{};
  ACL_ASSERT_OK(aclrtDeviceGetUuid(0, &first));
  ACL_ASSERT_OK(aclrtDeviceGetUuid(1, &second));
  ACL_ASSERT_OK(aclrtDeviceGetUuid(0, &again));
  EXPECT_NE(std::memcmp(first.bytes, second.bytes, sizeof(first.bytes)), 0);
  EXPECT_EQ(std::memcmp(first.bytes, again.bytes, sizeof(first.bytes)), 0);
  ACL_EXPECT_ERROR(aclrtDeviceGetUuid(2, &first), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceGetUuid");
  ACL_EXPECT_ERROR(aclrtDeviceGetUuid(0, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetUuid");

  int32_t pid = 0;
  ACL_ASSERT_OK(aclrtDeviceGetBareTgid(&pid));
  EXPECT_EQ(pid, getpid());
  ACL_EXPECT_ERROR(aclrtDeviceGetBareTgid(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetBareTgid");
}

TEST(DeviceInfo, DeviceIdsMapOntoThemselves) {
  using Mapping = aclError (*)(const int32_t, int32_t* const);
  const std::pair<const char*, Mapping> mappings[] = {
      {"aclrtGetLogicDevIdByUserDevId", aclrtGetLogicDevIdByUserDevId},
      {"aclrtGetUserDevIdByLogicDevId", aclrtGetUserDevIdByLogicDevId},
      {"aclrtGetLogicDevIdByPhyDevId", aclrtGetLogicDevIdByPhyDevId},
      {"aclrtGetPhyDevIdByLogicDevId", aclrtGetPhyDevIdByLogicDevId},
      {"aclrtGetUserDevIdByPhyDevId", aclrtGetUserDevIdByPhyDevId},
      {"aclrtGetPhyDevIdByUserDevId", aclrtGetPhyDevIdByUserDevId},
  };
  for (const auto& [name, map] : mappings) {
    SCOPED_TRACE(name);
    for (int32_t device = 0; device < 2; ++device) {
      int32_t mapped = -1;
      ACL_ASSERT_OK(map(device, &mapped));
      EXPECT_EQ(mapped, device);
    }
    int32_t mapped = -1;
    ACL_EXPECT_ERROR(map(2, &mapped), ACL_ERROR_RT_INVALID_DEVICEID, name);
    ACL_EXPECT_ERROR(map(-1, &mapped), ACL_ERROR_RT_INVALID_DEVICEID, name);
    ACL_EXPECT_ERROR(map(0, nullptr), ACL_ERROR_INVALID_PARAM, name);
  }
}

TEST(DeviceInfo, OverflowModeIsInfNan) {
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ACL_ASSERT_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  ACL_EXPECT_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  ACL_EXPECT_ERROR(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtSetDeviceSatMode: not supported");
  ACL_EXPECT_ERROR(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_INVALID_PARAM, "aclrtSetDeviceSatMode");
  ACL_EXPECT_ERROR(aclrtGetDeviceSatMode(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceSatMode");
}

TEST(DeviceInfo, PeerAccessStatusFollowsEnableAndDisable) {
  ContextGuard guard;
  ACL_ASSERT_OK(aclrtSetDevice(0));
  int32_t status = -1;
  ACL_ASSERT_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 0);
  ACL_ASSERT_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ACL_ASSERT_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 1);
  ACL_ASSERT_OK(aclrtDeviceDisablePeerAccess(1));
  ACL_ASSERT_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 0);
  ACL_EXPECT_ERROR(aclrtDevicePeerAccessStatus(0, 2, &status), ACL_ERROR_RT_INVALID_DEVICEID,
                   "aclrtDevicePeerAccessStatus");
  ACL_EXPECT_ERROR(aclrtDevicePeerAccessStatus(0, 1, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDevicePeerAccessStatus");
  ACL_EXPECT_OK(aclrtResetDevice(0));
}

TEST(DeviceInfo, ArchCompatibilityIsTheSocName) {
  int32_t compatible = -1;
  ACL_ASSERT_OK(aclrtCheckArchCompatibility(aclrtGetSocName(), &compatible));
  EXPECT_EQ(compatible, 1);
  ACL_ASSERT_OK(aclrtCheckArchCompatibility("Ascend310P3", &compatible));
  EXPECT_EQ(compatible, 0);
  ACL_EXPECT_ERROR(aclrtCheckArchCompatibility(nullptr, &compatible), ACL_ERROR_INVALID_PARAM,
                   "aclrtCheckArchCompatibility");
  ACL_EXPECT_ERROR(aclrtCheckArchCompatibility("Ascend910B3", nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtCheckArchCompatibility");
}

}  // namespace
