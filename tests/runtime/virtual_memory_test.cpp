// The virtual-memory API, for real: reserve address space, back it with
// physical allocations, copy across the seam between two mappings.
#include <chrono>
#include <cstring>
#include <functional>
#include <future>
#include <vector>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

aclrtPhysicalMemProp DeviceProp(int32_t device) {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = static_cast<uint32_t>(device);
  prop.reserve = 0;
  return prop;
}

size_t Granularity() {
  aclrtPhysicalMemProp prop = DeviceProp(0);
  size_t granularity = 0;
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &granularity),
            ACL_SUCCESS);
  return granularity;
}

TEST(VirtualMemory, Granularity) {
  aclrtPhysicalMemProp prop = DeviceProp(0);
  size_t minimum = 0, recommended = 0;
  ACL_ASSERT_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &minimum));
  ACL_ASSERT_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &recommended));
  EXPECT_GT(minimum, 0u);
  EXPECT_EQ(recommended % minimum, 0u);
  ACL_EXPECT_ERROR(aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &minimum),
                   ACL_ERROR_INVALID_PARAM, "aclrtMemGetAllocationGranularity");
  ACL_EXPECT_ERROR(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, nullptr),
                   ACL_ERROR_INVALID_PARAM, "aclrtMemGetAllocationGranularity");
  ACL_EXPECT_ERROR(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &minimum),
                   ACL_ERROR_INVALID_PARAM, "aclrtMemGetAllocationGranularity");
}

TEST(VirtualMemory, TwoChunksBackToBackBehaveAsOneRange) {
  const size_t chunk = Granularity();
  aclrtPhysicalMemProp prop = DeviceProp(0);
  size_t free_before = 0, total = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
  void* base = nullptr;
  ACL_ASSERT_OK(aclrtReserveMemAddress(&base, 4 * chunk, 0, nullptr, 1));  // llama.cpp passes flags 1
  aclrtDrvMemHandle first = nullptr, second = nullptr;
  ACL_ASSERT_OK(aclrtMallocPhysical(&first, chunk, &prop, 0));
  ACL_ASSERT_OK(aclrtMallocPhysical(&second, chunk, &prop, 0));
  size_t free_during = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_during, &total));
  EXPECT_EQ(free_during + 2 * chunk, free_before);  // physical memory counts, reservations do not
  auto* bytes = static_cast<unsigned char*>(base);
  ACL_ASSERT_OK(aclrtMapMem(bytes, chunk, 0, first, 0));
  ACL_ASSERT_OK(aclrtMapMem(bytes + chunk, chunk, 0, second, 0));
  EXPECT_EQ(canopyIsDeviceMemory(bytes, 2 * chunk), 1);
  EXPECT_EQ(canopyIsDeviceMemory(bytes, 2 * chunk + 1), 0);

  // A copy across the seam, both ways, queued and synchronous.
  constexpr size_t kSpan = 1 << 16;
  std::vector<unsigned char> pattern(kSpan), result(kSpan, 0);
  for (size_t i = 0; i < kSpan; ++i) pattern[i] = static_cast<unsigned char>(i * 13 + 1);
  unsigned char* seam = bytes + chunk - kSpan / 2;
  ACL_ASSERT_OK(aclrtMemcpy(seam, kSpan, pattern.data(), kSpan, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_ASSERT_OK(aclrtMemcpy(result.data(), kSpan, seam, kSpan, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(result, pattern);
  ScopedStream stream;
  HostBuffer pinned(kSpan);
  ACL_ASSERT_OK(aclrtMemsetAsync(seam, kSpan, 0x42, kSpan, stream));
  ACL_ASSERT_OK(aclrtMemcpyAsync(pinned.get(), kSpan, seam, kSpan, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(pinned.as<unsigned char>()[0], 0x42);
  EXPECT_EQ(pinned.as<unsigned char>()[kSpan - 1], 0x42);
  // Mapped memory is real: the second chunk's bytes live in its physical allocation.
  {
    DeviceBuffer plain(kSpan);
    ACL_ASSERT_OK(aclrtMemcpy(plain.get(), kSpan, bytes + chunk, kSpan, ACL_MEMCPY_DEVICE_TO_DEVICE));
    EXPECT_EQ(plain.as<unsigned char>()[kSpan / 2 - 1], 0x42);
  }

  // Error cases while mapped.
  ACL_EXPECT_ERROR(aclrtMapMem(bytes, chunk, 0, second, 0), ACL_ERROR_INVALID_PARAM, "aclrtMapMem");  // overlap
  ACL_EXPECT_ERROR(aclrtReleaseMemAddress(base), ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress");
  ACL_EXPECT_ERROR(aclrtUnmapMem(bytes + 4096), ACL_ERROR_INVALID_PARAM, "aclrtUnmapMem");

  ACL_ASSERT_OK(aclrtUnmapMem(bytes));
  ACL_ASSERT_OK(aclrtUnmapMem(bytes + chunk));
  EXPECT_EQ(canopyIsDeviceMemory(bytes, 1), 0);
  ACL_EXPECT_ERROR(aclrtMemcpy(bytes, 16, pattern.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   "aclrtMemcpy");
  ACL_EXPECT_ERROR(aclrtUnmapMem(bytes), ACL_ERROR_INVALID_PARAM, "aclrtUnmapMem");
  ACL_ASSERT_OK(aclrtFreePhysical(first));
  ACL_ASSERT_OK(aclrtFreePhysical(second));
  ACL_EXPECT_ERROR(aclrtFreePhysical(second), ACL_ERROR_INVALID_PARAM, "aclrtFreePhysical");
  ACL_ASSERT_OK(aclrtReleaseMemAddress(base));
  ACL_EXPECT_ERROR(aclrtReleaseMemAddress(base), ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress");
  size_t free_after = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  EXPECT_EQ(free_after, free_before);
}

TEST(VirtualMemory, ReservationOfAnySizeAsLlamaCppMakesIt) {
  // llama.cpp reserves the device's free memory in bytes, not a granule multiple,
  // then maps granule-sized chunks one after the other from the start.
  const size_t chunk = Granularity();
  size_t free_bytes = 0, total = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
  void* base = nullptr;
  ACL_ASSERT_OK(aclrtReserveMemAddress(&base, free_bytes - 12345, 0, nullptr, 1));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(base) % chunk, 0u);
  aclrtPhysicalMemProp prop = DeviceProp(0);
  aclrtDrvMemHandle handle = nullptr;
  ACL_ASSERT_OK(aclrtMallocPhysical(&handle, chunk, &prop, 0));
  ACL_ASSERT_OK(aclrtMapMem(base, chunk, 0, handle, 0));
  ACL_ASSERT_OK(aclrtMemset(base, chunk, 1, chunk));
  ACL_ASSERT_OK(aclrtUnmapMem(base));
  ACL_ASSERT_OK(aclrtFreePhysical(handle));
  ACL_ASSERT_OK(aclrtReleaseMemAddress(base));
  void* odd = nullptr;
  ACL_ASSERT_OK(aclrtReserveMemAddress(&odd, chunk + 1, 0, nullptr, 0));  // rounded up to two granules
  ACL_ASSERT_OK(aclrtReleaseMemAddress(odd));
}

TEST(VirtualMemory, OnePhysicalAllocationSeenThroughTwoRanges) {
  const size_t chunk = Granularity();
  aclrtPhysicalMemProp prop = DeviceProp(0);
  void* a = nullptr;
  void* b = nullptr;
  ACL_ASSERT_OK(aclrtReserveMemAddress(&a, chunk, 0, nullptr, 0));
  ACL_ASSERT_OK(aclrtReserveMemAddress(&b, chunk, 0, nullptr, 0));
  aclrtDrvMemHandle handle = nullptr;
  ACL_ASSERT_OK(aclrtMallocPhysical(&handle, chunk, &prop, 0));
  ACL_ASSERT_OK(aclrtMapMem(a, chunk, 0, handle, 0));
  ACL_ASSERT_OK(aclrtMapMem(b, chunk, 0, handle, 0));
  ACL_ASSERT_OK(aclrtMemset(a, chunk, 0x17, 4096));
  EXPECT_EQ(static_cast<unsigned char*>(b)[4095], 0x17);
  // Freeing a mapped allocation is deferred until its last mapping goes.
  ACL_ASSERT_OK(aclrtFreePhysical(handle));
  EXPECT_EQ(static_cast<unsigned char*>(b)[0], 0x17);
  ACL_EXPECT_ERROR(aclrtMapMem(a, chunk, 0, handle, 0), ACL_ERROR_INVALID_PARAM, "aclrtMapMem");
  ACL_ASSERT_OK(aclrtUnmapMem(a));
  ACL_ASSERT_OK(aclrtUnmapMem(b));
  ACL_ASSERT_OK(aclrtReleaseMemAddress(a));
  ACL_ASSERT_OK(aclrtReleaseMemAddress(b));
}

TEST(VirtualMemory, ArgumentChecks) {
  const size_t chunk = Granularity();
  aclrtPhysicalMemProp prop = DeviceProp(0);
  void* base = nullptr;
  ACL_EXPECT_ERROR(aclrtReserveMemAddress(nullptr, chunk, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM,
                   "aclrtReserveMemAddress");
  ACL_EXPECT_ERROR(aclrtReserveMemAddress(&base, 0, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress");
  ACL_EXPECT_ERROR(aclrtReserveMemAddress(&base, chunk, 3, nullptr, 0), ACL_ERROR_INVALID_PARAM,
                   "aclrtReserveMemAddress");  // alignment not a power of two
  ACL_EXPECT_ERROR(aclrtReserveMemAddress(&base, chunk, 0, nullptr, 7), ACL_ERROR_INVALID_PARAM,
                   "aclrtReserveMemAddress");
  ACL_EXPECT_ERROR(aclrtReleaseMemAddress(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress");
  int not_reserved = 0;
  ACL_EXPECT_ERROR(aclrtReleaseMemAddress(&not_reserved), ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress");

  aclrtDrvMemHandle handle = nullptr;
  ACL_EXPECT_ERROR(aclrtMallocPhysical(nullptr, chunk, &prop, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical");
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, chunk, nullptr, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical");
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, 0, &prop, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical");
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, chunk / 2, &prop, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical");
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, chunk, &prop, 1), ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical");
  aclrtPhysicalMemProp bad = prop;
  bad.location.id = 5;
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, chunk, &bad, 0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtMallocPhysical");
  bad = prop;
  bad.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, chunk, &bad, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical");
  bad = prop;
  bad.memAttr = ACL_DDR_MEM_HUGE;  // DDR attributes are for host locations only
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, chunk, &bad, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical");
  bad = prop;
  bad.location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, chunk, &bad, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical");
  ACL_EXPECT_ERROR(aclrtFreePhysical(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtFreePhysical");
  ACL_EXPECT_ERROR(aclrtFreePhysical(&not_reserved), ACL_ERROR_INVALID_PARAM, "aclrtFreePhysical");

  ACL_ASSERT_OK(aclrtReserveMemAddress(&base, 2 * chunk, 0, nullptr, 0));
  ACL_ASSERT_OK(aclrtMallocPhysical(&handle, chunk, &prop, 0));
  auto* bytes = static_cast<unsigned char*>(base);
  ACL_EXPECT_ERROR(aclrtMapMem(bytes, chunk, chunk / 2, handle, 0), ACL_ERROR_INVALID_PARAM, "aclrtMapMem");
  ACL_EXPECT_ERROR(aclrtMapMem(bytes, chunk / 2, 0, handle, 0), ACL_ERROR_INVALID_PARAM, "aclrtMapMem");
  ACL_EXPECT_ERROR(aclrtMapMem(bytes, chunk, 0, handle, 1), ACL_ERROR_INVALID_PARAM, "aclrtMapMem");
  ACL_EXPECT_ERROR(aclrtMapMem(bytes + 2 * chunk, chunk, 0, handle, 0), ACL_ERROR_INVALID_PARAM,
                   "aclrtMapMem");  // outside the reservation
  ACL_EXPECT_ERROR(aclrtMapMem(bytes + 4096, chunk, 0, handle, 0), ACL_ERROR_INVALID_PARAM,
                   "aclrtMapMem");  // not granularity-aligned and runs past the end
  ACL_EXPECT_ERROR(aclrtMapMem(nullptr, chunk, 0, handle, 0), ACL_ERROR_INVALID_PARAM, "aclrtMapMem");
  ACL_EXPECT_ERROR(aclrtMapMem(bytes, chunk, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM, "aclrtMapMem");
  ACL_EXPECT_ERROR(aclrtMapMem(bytes, chunk, 0, &not_reserved, 0), ACL_ERROR_INVALID_PARAM, "aclrtMapMem");
  ACL_ASSERT_OK(aclrtMapMem(bytes + chunk, chunk, 0, handle, 0));
  ACL_ASSERT_OK(aclrtUnmapMem(bytes + chunk));
  ACL_EXPECT_ERROR(aclrtUnmapMem(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtUnmapMem");
  ACL_ASSERT_OK(aclrtFreePhysical(handle));
  ACL_ASSERT_OK(aclrtReleaseMemAddress(base));

  // Host-located physical memory is not counted against the device.
  aclrtPhysicalMemProp host = prop;
  host.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  host.memAttr = ACL_DDR_MEM_NORMAL;
  ACL_ASSERT_OK(aclrtMallocPhysical(&handle, chunk, &host, 0));
  ACL_ASSERT_OK(aclrtFreePhysical(handle));
}

TEST(VirtualMemory, PhysicalMemoryOnTheSecondDevice) {
  const size_t chunk = Granularity();
  aclrtPhysicalMemProp prop = DeviceProp(1);
  aclrtDrvMemHandle handle = nullptr;
  ACL_ASSERT_OK(aclrtMallocPhysical(&handle, chunk, &prop, 0));
  void* base = nullptr;
  ACL_ASSERT_OK(aclrtReserveMemAddress(&base, chunk, 0, nullptr, 0));
  ACL_ASSERT_OK(aclrtMapMem(base, chunk, 0, handle, 0));
  ACL_ASSERT_OK(aclrtMemset(base, chunk, 3, chunk));
  ACL_ASSERT_OK(aclrtUnmapMem(base));
  ACL_ASSERT_OK(aclrtReleaseMemAddress(base));
  ACL_ASSERT_OK(aclrtFreePhysical(handle));
}

// A mapped range whose physical memory, reservation and mapping are created and
// torn down by the test.
struct MappedRange {
  void* base = nullptr;
  aclrtDrvMemHandle physical = nullptr;
  size_t size = 0;
  void Map() {
    size = Granularity();
    aclrtPhysicalMemProp prop = DeviceProp(0);
    ACL_ASSERT_OK(aclrtReserveMemAddress(&base, size, 0, nullptr, 0));
    ACL_ASSERT_OK(aclrtMallocPhysical(&physical, size, &prop, 0));
    ACL_ASSERT_OK(aclrtMapMem(base, size, 0, physical, 0));
  }
  void Release() {
    ACL_EXPECT_OK(aclrtFreePhysical(physical));
    ACL_EXPECT_OK(aclrtReleaseMemAddress(base));
  }
};

// Runs aclrtUnmapMem on another thread; false when it has not returned within the
// limit (then `on_timeout` unblocks it and the status is still collected).
bool UnmapReturnsWithoutWaiting(void* base, const std::function<void()>& on_timeout) {
  auto unmapped = std::async(std::launch::async, [base] { return aclrtUnmapMem(base); });
  const bool returned = unmapped.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  if (!returned) on_timeout();
  EXPECT_EQ(unmapped.get(), ACL_SUCCESS) << RecentMessage();
  return returned;
}

// A host function on an unrelated stream that waits for the caller must not
// deadlock aclrtUnmapMem (before the fix it synchronised every stream).
TEST(VirtualMemory, UnmapDoesNotWaitForAHostFunctionOnAnotherStream) {
  MappedRange range;
  ASSERT_NO_FATAL_FAILURE(range.Map());
  ScopedStream other;
  StreamBlocker blocker(other);  // opened only after the unmap returns
  ASSERT_TRUE(blocker.WaitEntered());
  EXPECT_TRUE(UnmapReturnsWithoutWaiting(range.base, [&] { blocker.Release(); }));
  blocker.Release();
  range.Release();
}

// Unmapping (and releasing the reservation) while a task still writes the range:
// the call returns at once, the range stays usable until the task has passed,
// and this holds for a stream force-destroyed meanwhile as well.
TEST(VirtualMemory, UnmapWhileATaskStillWritesTheRangeWaitsForNothing) {
  for (const bool force_destroy : {false, true}) {
    SCOPED_TRACE(force_destroy ? "force-destroyed stream" : "live stream");
    CheckerOff unchecked;  // a use after unmap on purpose
    MappedRange range;
    ASSERT_NO_FATAL_FAILURE(range.Map());
    aclrtStream stream = nullptr;
    ACL_ASSERT_OK(aclrtCreateStream(&stream));
    GatedWrite gate;
    gate.block = range.base;
    gate.bytes = range.size;
    ACL_ASSERT_OK(canopyLaunchTask(stream, "gated write", GatedWrite::Run, nullptr, &gate));
    ASSERT_TRUE(gate.WaitStarted());
    if (force_destroy) {
      ACL_ASSERT_OK(aclrtDestroyStreamForce(stream));
    }
    EXPECT_TRUE(UnmapReturnsWithoutWaiting(range.base, [&] { gate.open.store(true); }));
    range.Release();
    gate.open.store(true);
    if (force_destroy) {
      ACL_EXPECT_OK(aclrtSynchronizeDevice());
    } else {
      ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
      ACL_EXPECT_OK(aclrtDestroyStream(stream));
    }
    EXPECT_TRUE(gate.wrote.load());
  }
}

}  // namespace
