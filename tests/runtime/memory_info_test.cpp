// Pointer attributes, address ranges, allocation options and host registration
// (src/runtime/api_memory_info.cpp).
#include <unistd.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

TEST(MemoryInfo, PointerAttributesTellDeviceHostAndPlainMemory) {
  void* device = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  void* host = nullptr;
  ACL_ASSERT_OK(aclrtMallocHost(&host, 4096));
  std::vector<char> plain(64);

  aclrtPtrAttributes attributes{};
  ACL_ASSERT_OK(aclrtPointerGetAttributes(static_cast<char*>(device) + 100, &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attributes.location.id, 0u);
  EXPECT_EQ(attributes.pageSize, static_cast<uint32_t>(sysconf(_SC_PAGESIZE)));
  ACL_ASSERT_OK(aclrtPointerGetAttributes(host, &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  ACL_ASSERT_OK(aclrtPointerGetAttributes(plain.data(), &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);

  ACL_EXPECT_ERROR(aclrtPointerGetAttributes(nullptr, &attributes), ACL_ERROR_INVALID_PARAM,
                   "aclrtPointerGetAttributes");
  ACL_EXPECT_ERROR(aclrtPointerGetAttributes(device, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtPointerGetAttributes");
  ACL_EXPECT_OK(aclrtFree(device));
  ACL_EXPECT_OK(aclrtFreeHost(host));
  // Freed memory is plain memory again.
  ACL_ASSERT_OK(aclrtPointerGetAttributes(device, &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

TEST(MemoryInfo, DeviceAttributesNameTheDevice) {
  ContextGuard guard;
  ACL_ASSERT_OK(aclrtSetDevice(1));
  void* device = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&device, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtPtrAttributes attributes{};
  ACL_ASSERT_OK(aclrtPointerGetAttributes(device, &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attributes.location.id, 1u);
  ACL_EXPECT_OK(aclrtFree(device));
  ACL_EXPECT_OK(aclrtResetDevice(1));
}

TEST(MemoryInfo, AddressRangeOfAnInteriorPointer) {
  void* device = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&device, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  void* base = nullptr;
  size_t size = 0;
  ACL_ASSERT_OK(aclrtMemGetAddressRange(static_cast<char*>(device) + 999, &base, &size));
  EXPECT_EQ(base, device);
  EXPECT_GE(size, 1000u);  // aclrtMalloc rounds the size up
  size = 0;
  ACL_ASSERT_OK(aclrtMemGetAddressRange(device, nullptr, &size));
  EXPECT_GE(size, 1000u);
  int plain = 0;
  ACL_EXPECT_ERROR(aclrtMemGetAddressRange(&plain, &base, &size), ACL_ERROR_INVALID_PARAM, "aclrtMemGetAddressRange");
  ACL_EXPECT_ERROR(aclrtMemGetAddressRange(device, nullptr, nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtMemGetAddressRange");
  ACL_EXPECT_OK(aclrtFreeWithDevSync(device));
  ACL_EXPECT_ERROR(aclrtMemGetAddressRange(device, &base, &size), ACL_ERROR_INVALID_PARAM, "aclrtMemGetAddressRange");
}

TEST(MemoryInfo, MallocWithConfig) {
  void* device = nullptr;
  ACL_ASSERT_OK(aclrtMallocWithCfg(&device, 512, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
  std::vector<float> in(128), out(128);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  for (float& x : in) x = value(random);
  ACL_ASSERT_OK(aclrtMemcpy(device, 512, in.data(), 512, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_ASSERT_OK(aclrtMemcpy(out.data(), 512, device, 512, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(in, out);
  ACL_EXPECT_OK(aclrtFreeWithDevSync(device));

  aclrtMallocAttribute module{};
  module.attr = ACL_RT_MEM_ATTR_MODULE_ID;
  module.value.moduleId = 3;
  aclrtMallocConfig config{&module, 1};
  ACL_ASSERT_OK(aclrtMallocWithCfg(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST, &config));
  ACL_EXPECT_OK(aclrtFree(device));
  void* host = nullptr;
  ACL_ASSERT_OK(aclrtMallocHostWithCfg(&host, 64, &config));
  aclrtPtrAttributes attributes{};
  ACL_ASSERT_OK(aclrtPointerGetAttributes(host, &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  ACL_EXPECT_OK(aclrtFreeHostWithDevSync(host));

  aclrtMallocAttribute on_device{};
  on_device.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
  on_device.value.deviceId = 1;
  aclrtMallocConfig other{&on_device, 1};
  ACL_EXPECT_ERROR(aclrtMallocWithCfg(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST, &other), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtMallocWithCfg: not supported");
  aclrtMallocConfig broken{nullptr, 2};
  ACL_EXPECT_ERROR(aclrtMallocHostWithCfg(&host, 64, &broken), ACL_ERROR_INVALID_PARAM, "aclrtMallocHostWithCfg");
  module.attr = static_cast<aclrtMallocAttrType>(99);
  ACL_EXPECT_ERROR(aclrtMallocWithCfg(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST, &config), ACL_ERROR_INVALID_PARAM,
                   "aclrtMallocWithCfg");
  ACL_EXPECT_ERROR(aclrtFreeWithDevSync(host), ACL_ERROR_INVALID_PARAM, "aclrtFree");
}

TEST(MemoryInfo, RegisteredHostMemoryIsPinnedUntilUnregistered) {
  std::vector<float> buffer(256);
  std::mt19937 random(11);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  for (float& x : buffer) x = value(random);
  const size_t bytes = buffer.size() * sizeof(float);
  void* mapped = nullptr;
  ACL_ASSERT_OK(aclrtHostRegister(buffer.data(), bytes, ACL_HOST_REGISTER_MAPPED, &mapped));
  EXPECT_EQ(mapped, buffer.data());
  void* device_view = nullptr;
  ACL_ASSERT_OK(aclrtHostGetDevicePointer(buffer.data() + 10, &device_view, 0));
  EXPECT_EQ(device_view, buffer.data() + 10);
  aclrtPtrAttributes attributes{};
  ACL_ASSERT_OK(aclrtPointerGetAttributes(buffer.data() + 255, &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);

  // A queued copy from registered memory to the device and back.
  ScopedStream stream;
  void* device = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> back(buffer.size());
  ACL_ASSERT_OK(aclrtMemcpyAsync(device, bytes, buffer.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  ACL_ASSERT_OK(aclrtMemcpy(back.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, buffer);
  ACL_EXPECT_OK(aclrtFree(device));

  ACL_EXPECT_ERROR(aclrtHostRegister(buffer.data() + 4, 16, ACL_HOST_REGISTER_MAPPED, &mapped),
                   ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "aclrtHostRegister");
  ACL_EXPECT_ERROR(aclrtFreeHost(buffer.data()), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost");  // not Canopy's to free
  ACL_EXPECT_ERROR(aclrtHostUnregister(buffer.data() + 1), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister");
  ACL_ASSERT_OK(aclrtHostUnregister(buffer.data()));
  ACL_EXPECT_ERROR(aclrtHostUnregister(buffer.data()), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister");
  ACL_EXPECT_ERROR(aclrtHostGetDevicePointer(buffer.data(), &device_view, 0), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                   "aclrtHostGetDevicePointer");
  ACL_ASSERT_OK(aclrtPointerGetAttributes(buffer.data(), &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);

  // The V2 spelling, and the rejections.
  ACL_ASSERT_OK(aclrtHostRegisterV2(buffer.data(), bytes, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED));
  ACL_ASSERT_OK(aclrtHostUnregister(buffer.data()));
  ACL_EXPECT_ERROR(aclrtHostRegisterV2(buffer.data(), bytes, ACL_HOST_REG_IOMEMORY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtHostRegisterV2: not supported");
  ACL_EXPECT_ERROR(aclrtHostRegister(buffer.data(), bytes, ACL_HOST_REGISTER_READONLY, &mapped),
                   ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtHostRegister: not supported");
  ACL_EXPECT_ERROR(aclrtHostRegister(buffer.data(), 0, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM,
                   "aclrtHostRegister");
  ACL_EXPECT_ERROR(aclrtHostRegister(nullptr, bytes, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM,
                   "aclrtHostRegister");
  ACL_EXPECT_ERROR(aclrtHostRegister(buffer.data(), bytes, ACL_HOST_REGISTER_MAPPED, nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtHostRegister");
  // Memory acl allocated is already pinned.
  void* host = nullptr;
  ACL_ASSERT_OK(aclrtMallocHost(&host, 64));
  ACL_EXPECT_ERROR(aclrtHostRegisterV2(host, 64, ACL_HOST_REG_PINNED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                   "aclrtHostRegisterV2");
  ACL_EXPECT_OK(aclrtFreeHost(host));
}

}  // namespace
