// aclrtMemsetD32 and aclrtMemsetD32Async: N 32-bit values, against a plain
// reference fill (src/runtime/api_memory.cpp).
// aclsysGetCANNVersion is deprecated in CANN but still part of the surface.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <cstring>
#include <random>
#include <vector>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

constexpr size_t kValues = 1000;

std::vector<uint32_t> Download(const void* device, size_t count) {
  std::vector<uint32_t> host(count);
  EXPECT_EQ(aclrtMemcpy(host.data(), count * 4, device, count * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return host;
}

TEST(Fill32, SynchronousAndQueuedFillsMatchTheReference) {
  std::mt19937 random(5);
  std::vector<uint32_t> reference(kValues);
  for (uint32_t& x : reference) x = random() | 1u;
  void* device = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&device, kValues * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_ASSERT_OK(aclrtMemcpy(device, kValues * 4, reference.data(), kValues * 4, ACL_MEMCPY_HOST_TO_DEVICE));

  // A fill of the middle leaves both ends alone.
  const uint32_t value = 0xDEADBEEFu;
  ACL_ASSERT_OK(aclrtMemsetD32(static_cast<uint32_t*>(device) + 10, (kValues - 10) * 4, value, 500));
  for (size_t i = 10; i < 510; ++i) reference[i] = value;
  EXPECT_EQ(Download(device, kValues), reference);

  ScopedStream stream;
  const uint32_t other = 0x3F800000u;  // 1.0f
  ACL_ASSERT_OK(aclrtMemsetD32Async(static_cast<uint32_t*>(device) + 700, 300 * 4, other, 300, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  for (size_t i = 700; i < kValues; ++i) reference[i] = other;
  EXPECT_EQ(Download(device, kValues), reference);

  // N = 0 fills nothing and succeeds.
  ACL_EXPECT_OK(aclrtMemsetD32(device, kValues * 4, 7, 0));
  EXPECT_EQ(Download(device, kValues), reference);
  ACL_EXPECT_OK(aclrtFree(device));
}

TEST(Fill32, PinnedHostMemoryToo) {
  void* host = nullptr;
  ACL_ASSERT_OK(aclrtMallocHost(&host, 64 * 4));
  ACL_ASSERT_OK(aclrtMemsetD32(host, 64 * 4, 0x01020304u, 64));
  const auto* values = static_cast<const uint32_t*>(host);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(values[i], 0x01020304u) << i;
  ACL_EXPECT_OK(aclrtFreeHost(host));
}

TEST(Fill32, Rejections) {
  void* device = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_EXPECT_ERROR(aclrtMemsetD32(device, 64, 1, 17), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemsetD32");  // 68 > 64 bytes
  ACL_EXPECT_ERROR(aclrtMemsetD32(device, 64, 1, SIZE_MAX / 2), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemsetD32");
  ACL_EXPECT_ERROR(aclrtMemsetD32(nullptr, 64, 1, 4), ACL_ERROR_INVALID_PARAM, "aclrtMemsetD32");
  std::vector<uint32_t> pageable(16);
  ACL_EXPECT_ERROR(aclrtMemsetD32(pageable.data(), 64, 1, 16), ACL_ERROR_INVALID_PARAM, "aclrtMemsetD32");
  ScopedStream stream;
  ACL_EXPECT_ERROR(aclrtMemsetD32Async(device, 64, 1, 17, stream), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemsetD32Async");
  int not_a_stream = 0;
  ACL_EXPECT_ERROR(aclrtMemsetD32Async(device, 64, 1, 4, &not_a_stream), ACL_ERROR_INVALID_PARAM,
                   "aclrtMemsetD32Async");
  ACL_EXPECT_OK(aclrtFree(device));
}

TEST(Version, CannPackagesReportCanopysRelease) {
  char name[] = "runtime";
  char expected[128] = {};
  ACL_ASSERT_OK(aclsysGetVersionStr(name, expected));
  for (int package = ACL_PKG_NAME_CANN; package <= ACL_PKG_NAME_DRIVER; ++package) {
    aclCANNPackageVersion version{};
    ACL_ASSERT_OK(aclsysGetCANNVersion(static_cast<aclCANNPackageName>(package), &version));
    EXPECT_STREQ(version.version, expected);
    const std::string joined =
        std::string(version.majorVersion) + "." + version.minorVersion + "." + version.releaseVersion;
    EXPECT_EQ(joined, expected);
  }
  aclCANNPackageVersion version{};
  ACL_EXPECT_ERROR(aclsysGetCANNVersion(static_cast<aclCANNPackageName>(8), &version), ACL_ERROR_INVALID_PARAM,
                   "aclsysGetCANNVersion");
  ACL_EXPECT_ERROR(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, nullptr), ACL_ERROR_INVALID_PARAM, "aclsysGetCANNVersion");
}

TEST(EventInfo, RecordWithTheDefaultFlagIsARecord) {
  ScopedStream stream;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  ACL_ASSERT_OK(aclrtRecordEventWithFlag(event, stream, ACL_EVENT_RECORD_DEFAULT));
  ACL_ASSERT_OK(aclrtSynchronizeEvent(event));
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ACL_ASSERT_OK(aclrtQueryEventStatus(event, &status));
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ACL_EXPECT_ERROR(aclrtRecordEventWithFlag(event, stream, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtRecordEventWithFlag: not supported");
  ACL_EXPECT_ERROR(aclrtRecordEventWithFlag(nullptr, stream, ACL_EVENT_RECORD_DEFAULT), ACL_ERROR_INVALID_PARAM,
                   "aclrtRecordEvent");
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
}

}  // namespace
