// aclrtMalloc/Free, pinned host memory, copies (1-D, 2-D, every kind, queued
// and synchronous) and fills, with the exact codes for bad arguments.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <utility>
#include <vector>

#include "canopy/canopy_runtime.h"
#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

std::vector<unsigned char> Pattern(size_t bytes, unsigned seed) {
  std::vector<unsigned char> data(bytes);
  for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>((i * 131 + seed) >> 3);
  return data;
}

TEST(Memory, MallocChecksArguments) {
  void* memory = nullptr;
  ACL_EXPECT_ERROR(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMalloc");
  ACL_EXPECT_ERROR(aclrtMalloc(&memory, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMalloc");
  ACL_EXPECT_ERROR(aclrtMallocAlign32(&memory, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
                   "aclrtMallocAlign32");
  ACL_EXPECT_ERROR(aclrtMallocHost(nullptr, 64), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
  ACL_EXPECT_ERROR(aclrtMallocHost(&memory, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
}

TEST(Memory, EveryPolicyGivesAlignedUsableMemory) {
  const aclrtMemMallocPolicy policies[] = {ACL_MEM_MALLOC_HUGE_FIRST,
                                           ACL_MEM_MALLOC_HUGE_ONLY,
                                           ACL_MEM_MALLOC_NORMAL_ONLY,
                                           ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                                           ACL_MEM_MALLOC_HUGE_ONLY_P2P,
                                           ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
                                           ACL_MEM_MALLOC_HUGE1G_ONLY,
                                           ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
                                           ACL_MEM_TYPE_LOW_BAND_WIDTH,
                                           ACL_MEM_TYPE_HIGH_BAND_WIDTH,
                                           static_cast<aclrtMemMallocPolicy>(77)};
  for (aclrtMemMallocPolicy policy : policies) {
    for (size_t size : {size_t{1}, size_t{100}, size_t{4096}, size_t{3} << 20}) {
      void* memory = nullptr;
      ACL_ASSERT_OK(aclrtMalloc(&memory, size, policy));
      EXPECT_EQ(reinterpret_cast<uintptr_t>(memory) % 512, 0u) << "policy " << policy << " size " << size;
      // CANN's rounding: up to a multiple of 32 bytes, plus 32; the padding is addressable.
      const size_t padded = (size + 31) / 32 * 32 + 32;
      EXPECT_EQ(canopyIsDeviceMemory(memory, padded), 1) << size;
      EXPECT_EQ(canopyIsDeviceMemory(memory, padded + 1), 0) << size;
      std::memset(memory, 0xab, size);  // device memory is host-addressable on Canopy
      ACL_EXPECT_OK(aclrtFree(memory));
    }
  }
  void* aligned = nullptr;
  ACL_ASSERT_OK(aclrtMallocAlign32(&aligned, 1000, ACL_MEM_MALLOC_NORMAL_ONLY));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 512, 0u);
  EXPECT_EQ(canopyIsDeviceMemory(aligned, 1024), 1);  // rounded up to 32 bytes, no extra 32
  EXPECT_EQ(canopyIsDeviceMemory(aligned, 1025), 0);
  ACL_EXPECT_OK(aclrtFree(aligned));
  void* cached = nullptr;
  ACL_ASSERT_OK(aclrtMallocCached(&cached, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_EXPECT_OK(aclrtFree(cached));
  void* host = nullptr;
  ACL_ASSERT_OK(aclrtMallocHost(&host, 1000));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
  EXPECT_EQ(canopyIsDeviceMemory(host, 1), 0);  // pinned host memory is not device memory
  ACL_EXPECT_OK(aclrtFreeHost(host));
}

// ggml-cann sizes its buffers for 128-byte-aligned allocations (real devices give
// that and more): many small allocations, every one 512-aligned, none overlapping.
TEST(Memory, SmallAllocationsAreAlignedLikeHardware) {
  std::vector<std::pair<uintptr_t, size_t>> blocks;
  for (size_t i = 0; i < 2000; ++i) {
    const size_t size = 1 + (i * 37) % 3000;
    void* memory = nullptr;
    ACL_ASSERT_OK(aclrtMalloc(&memory, size, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(memory) % 512, 0u) << "allocation " << i << " of " << size << " bytes";
    blocks.emplace_back(reinterpret_cast<uintptr_t>(memory), (size + 31) / 32 * 32 + 32);
  }
  std::sort(blocks.begin(), blocks.end());
  for (size_t i = 1; i < blocks.size(); ++i) {
    EXPECT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first) << "allocations overlap";
  }
  for (const auto& [base, size] : blocks) ACL_EXPECT_OK(aclrtFree(reinterpret_cast<void*>(base)));
}

TEST(Memory, FreeRejectsWhatItNeverGave) {
  ACL_EXPECT_ERROR(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtFree");
  int on_stack = 0;
  ACL_EXPECT_ERROR(aclrtFree(&on_stack), ACL_ERROR_INVALID_PARAM, "aclrtFree");
  void* from_malloc = std::malloc(128);
  ACL_EXPECT_ERROR(aclrtFree(from_malloc), ACL_ERROR_INVALID_PARAM, "aclrtFree");
  std::free(from_malloc);

  void* memory = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&memory, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_EXPECT_ERROR(aclrtFree(static_cast<char*>(memory) + 64), ACL_ERROR_INVALID_PARAM, "aclrtFree");
  ACL_EXPECT_ERROR(aclrtFreeHost(memory), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost");
  ACL_ASSERT_OK(aclrtFree(memory));
  ACL_EXPECT_ERROR(aclrtFree(memory), ACL_ERROR_INVALID_PARAM, "aclrtFree");  // double free

  void* host = nullptr;
  ACL_ASSERT_OK(aclrtMallocHost(&host, 4096));
  ACL_EXPECT_ERROR(aclrtFree(host), ACL_ERROR_INVALID_PARAM, "aclrtFree");
  ACL_EXPECT_ERROR(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost");
  ACL_ASSERT_OK(aclrtFreeHost(host));
  ACL_EXPECT_ERROR(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost");
}

TEST(Memory, SynchronousCopiesOfEveryKind) {
  constexpr size_t kBytes = 3 << 20;  // large enough for the parallel copy path
  const auto pattern = Pattern(kBytes, 1);
  std::vector<unsigned char> result(kBytes);
  DeviceBuffer a(kBytes), b(kBytes);
  HostBuffer pinned(kBytes);
  ACL_ASSERT_OK(aclrtMemcpy(a.get(), kBytes, pattern.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_ASSERT_OK(aclrtMemcpy(b.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ACL_ASSERT_OK(aclrtMemcpy(pinned.get(), kBytes, b.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  ACL_ASSERT_OK(aclrtMemcpy(result.data(), kBytes, pinned.get(), kBytes, ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(result, pattern);
  // DEFAULT works the direction out from the addresses.
  std::fill(result.begin(), result.end(), 0);
  ACL_ASSERT_OK(aclrtMemset(a.get(), kBytes, 0, kBytes));
  ACL_ASSERT_OK(aclrtMemcpy(a.get(), kBytes, pattern.data(), kBytes, ACL_MEMCPY_DEFAULT));
  ACL_ASSERT_OK(aclrtMemcpy(result.data(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(result, pattern);
  // HOST_TO_BUF_TO_DEVICE is a host-to-device copy through a staging buffer.
  ACL_ASSERT_OK(aclrtMemcpy(b.get(), kBytes, pattern.data(), kBytes, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
  EXPECT_EQ(std::memcmp(b.get(), pattern.data(), kBytes), 0);
  // Copies inside one allocation may overlap.
  ACL_ASSERT_OK(aclrtMemcpy(a.as<char>() + 1, kBytes - 1, a.get(), kBytes - 1, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_EQ(std::memcmp(a.as<char>() + 1, pattern.data(), kBytes - 1), 0);
  // A sub-range of an allocation is fine.
  ACL_ASSERT_OK(aclrtMemcpy(a.as<char>() + 100, 50, pattern.data(), 50, ACL_MEMCPY_HOST_TO_DEVICE));
}

// Synchronous copies and fills run on the device's engine between tasks: a
// stream held by a host function does not hold them up.
TEST(Memory, SynchronousCopiesPassABlockedStream) {
  constexpr size_t kBytes = 3 << 20;
  const auto pattern = Pattern(kBytes, 2);
  DeviceBuffer a(kBytes), b(kBytes);
  ScopedStream stream;
  StreamBlocker blocker(stream.get());
  ASSERT_TRUE(blocker.WaitEntered());
  ACL_ASSERT_OK(aclrtMemcpy(a.get(), kBytes, pattern.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_ASSERT_OK(aclrtMemcpy(b.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ACL_ASSERT_OK(aclrtMemset(a.get(), kBytes, 7, kBytes));
  EXPECT_EQ(std::memcmp(b.get(), pattern.data(), kBytes), 0);
  EXPECT_EQ(a.as<unsigned char>()[kBytes - 1], 7);
  EXPECT_FALSE(blocker.left());
}

// A task on the engine that makes a synchronous copy runs it itself (waiting
// for its own engine would never end).
struct CopyInTask {
  void* dst;
  const void* src;
  size_t bytes;
  aclError status = ACL_ERROR_INTERNAL_ERROR;
};

int32_t CopyFromTask(void* data) {
  auto& job = *static_cast<CopyInTask*>(data);
  job.status = aclrtMemcpy(job.dst, job.bytes, job.src, job.bytes, ACL_MEMCPY_DEVICE_TO_DEVICE);
  return 0;
}

TEST(Memory, SynchronousCopyInsideATask) {
  constexpr size_t kBytes = 3 << 20;
  const auto pattern = Pattern(kBytes, 3);
  DeviceBuffer a(kBytes), b(kBytes);
  ACL_ASSERT_OK(aclrtMemcpy(a.get(), kBytes, pattern.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ScopedStream stream;
  CopyInTask job{b.get(), a.get(), kBytes};
  ACL_ASSERT_OK(canopyLaunchTask(stream.get(), "copy", CopyFromTask, nullptr, &job));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream.get()));
  EXPECT_EQ(job.status, ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(b.get(), pattern.data(), kBytes), 0);
}

TEST(Memory, CopyArgumentChecks) {
  constexpr size_t kBytes = 4096;
  DeviceBuffer device(kBytes);
  std::vector<unsigned char> host(kBytes);
  // count 0 succeeds at once, whatever the pointers.
  ACL_EXPECT_OK(aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_EXPECT_OK(aclrtMemcpyAsync(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  ACL_EXPECT_ERROR(aclrtMemcpy(nullptr, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "aclrtMemcpy");
  ACL_EXPECT_ERROR(aclrtMemcpy(device.get(), kBytes, nullptr, kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "aclrtMemcpy");
  ACL_EXPECT_ERROR(aclrtMemcpy(device.get(), kBytes - 1, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy");
  ACL_EXPECT_ERROR(aclrtMemcpyAsync(device.get(), 10, host.data(), 11, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                   ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsync");
  for (int kind : {6, 7, 99, -1}) {
    ACL_EXPECT_ERROR(aclrtMemcpy(device.get(), kBytes, host.data(), kBytes, static_cast<aclrtMemcpyKind>(kind)),
                     ACL_ERROR_INVALID_PARAM, "aclrtMemcpy");
  }
  // The device side must lie inside one live device allocation.
  ACL_EXPECT_ERROR(aclrtMemcpy(host.data(), kBytes, device.get(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "dst");
  ACL_EXPECT_ERROR(aclrtMemcpy(host.data(), kBytes, host.data() + 1, kBytes - 1, ACL_MEMCPY_DEVICE_TO_HOST),
                   ACL_ERROR_INVALID_PARAM, "src");
  ACL_EXPECT_ERROR(aclrtMemcpy(device.as<char>() + 64, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "aclrtMemcpy");  // runs past the end and its 32-byte padding
  // A host-to-host copy takes any memory; dst == src is a no-op.
  ACL_EXPECT_OK(aclrtMemcpy(device.get(), kBytes, device.get(), kBytes, ACL_MEMCPY_HOST_TO_HOST));
  HostBuffer pinned(kBytes);
  ACL_EXPECT_ERROR(aclrtMemcpy(pinned.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "dst");  // pinned host memory is not device memory
  // A freed block is no longer device memory.
  void* freed = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&freed, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_ASSERT_OK(aclrtFree(freed));
  ACL_EXPECT_ERROR(aclrtMemcpy(freed, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   "aclrtMemcpy");
  ACL_EXPECT_ERROR(aclrtMemcpyAsync(freed, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                   ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync");
  // A queued host-to-host copy does not exist on an NPU.
  ACL_EXPECT_ERROR(aclrtMemcpyAsync(pinned.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_HOST, nullptr),
                   ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMemcpyAsync");
  int not_a_stream = 0;
  ACL_EXPECT_ERROR(
      aclrtMemcpyAsync(device.get(), kBytes, pinned.get(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, &not_a_stream),
      ACL_ERROR_INVALID_PARAM, "stream");
}

TEST(Memory, QueuedCopiesRunInStreamOrder) {
  constexpr size_t kBytes = 1 << 20;
  const auto pattern = Pattern(kBytes, 5);
  HostBuffer source(kBytes), destination(kBytes);
  std::memcpy(source.get(), pattern.data(), kBytes);
  std::memset(destination.get(), 0, kBytes);
  DeviceBuffer a(kBytes), b(kBytes);
  ScopedStream stream;
  ACL_ASSERT_OK(aclrtMemcpyAsync(a.get(), kBytes, source.get(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ACL_ASSERT_OK(aclrtMemcpyAsync(b.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  ACL_ASSERT_OK(aclrtMemsetAsync(b.get(), kBytes, 0x11, 16, stream));
  ACL_ASSERT_OK(aclrtMemcpyAsync(destination.get(), kBytes, b.get(), kBytes, ACL_MEMCPY_DEFAULT, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  auto expected = pattern;
  std::fill(expected.begin(), expected.begin() + 16, 0x11);
  EXPECT_EQ(std::memcmp(destination.get(), expected.data(), kBytes), 0);
}

TEST(Memory, EnqueueNeverWaitsForTheWork) {
  constexpr size_t kBytes = size_t{256} << 20;
  HostBuffer pinned(kBytes);
  DeviceBuffer device(kBytes);
  ASSERT_NE(pinned.get(), nullptr);
  ASSERT_NE(device.get(), nullptr);
  auto* source = pinned.as<uint32_t>();
  for (size_t i = 0; i < kBytes / sizeof(uint32_t); i += 1024) source[i] = static_cast<uint32_t>(i);
  ScopedStream stream;
  std::atomic<int> host_function_ran{0};
  {
    StreamBlocker blocker(stream);
    ASSERT_TRUE(blocker.WaitEntered());
    // Each call returns while the stream is still held by the blocker: none of
    // them waited for the work they queued.
    ACL_ASSERT_OK(aclrtMemcpyAsync(device.get(), kBytes, pinned.get(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    ACL_ASSERT_OK(aclrtMemsetAsync(device.get(), kBytes, 0x7f, 64, stream));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, IncrementCounter, &host_function_ran));
    EXPECT_FALSE(blocker.left());
    aclrtStreamStatus status;
    ACL_ASSERT_OK(aclrtStreamQuery(stream, &status));
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    EXPECT_EQ(host_function_ran.load(), 0);
    EXPECT_NE(device.as<uint32_t>()[1024], 1024u);  // nothing copied yet
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(host_function_ran.load(), 1);
  const auto* copied = device.as<uint32_t>();
  EXPECT_EQ(copied[0], 0x7f7f7f7fu);  // the memset ran after the copy
  for (size_t i = 1024; i < kBytes / sizeof(uint32_t); i += 1024 * 97) EXPECT_EQ(copied[i], i);
  EXPECT_EQ(copied[kBytes / sizeof(uint32_t) - 1024], kBytes / sizeof(uint32_t) - 1024);
}

struct DelayedWrite {
  unsigned char* where;
  unsigned char value;
};
void SleepThenWrite(void* arg) {
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  auto* write = static_cast<DelayedWrite*>(arg);
  *write->where = write->value;
}

TEST(Memory, QueuedCopyWithPageableMemoryCompletesBeforeReturning) {
  // CANN: with ordinary (not aclrtMallocHost) host memory the call waits for
  // the stream and copies before it returns, so the buffer may be reused at once.
  DeviceBuffer device(256);
  ACL_ASSERT_OK(aclrtMemset(device.get(), 256, 0, 256));
  ScopedStream stream;
  DelayedWrite write{device.as<unsigned char>() + 7, 42};
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, SleepThenWrite, &write));
  std::vector<unsigned char> host(256, 0xee);
  ACL_ASSERT_OK(aclrtMemcpyAsync(host.data(), 256, device.get(), 256, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  EXPECT_EQ(host[7], 42);  // the earlier work on the stream came first
  EXPECT_EQ(host[8], 0);
  std::vector<unsigned char> upload(256, 9);
  ACL_ASSERT_OK(aclrtMemcpyAsync(device.get(), 256, upload.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  std::fill(upload.begin(), upload.end(), 1);  // reusing the buffer at once is safe
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(device.as<unsigned char>()[100], 9);

  // HOST_TO_BUF_TO_DEVICE stages the data and queues the copy without waiting.
  {
    StreamBlocker blocker(stream);
    std::vector<unsigned char> staged(256, 3);
    ACL_ASSERT_OK(aclrtMemcpyAsync(device.get(), 256, staged.data(), 256, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, stream));
    std::fill(staged.begin(), staged.end(), 4);
    EXPECT_FALSE(blocker.left());
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(device.as<unsigned char>()[200], 3);
}

TEST(Memory, Memset) {
  constexpr size_t kBytes = 2 << 20;
  DeviceBuffer device(kBytes);
  ACL_ASSERT_OK(aclrtMemset(device.get(), kBytes, 0x5a, kBytes));
  EXPECT_EQ(device.as<unsigned char>()[kBytes - 1], 0x5a);
  ACL_ASSERT_OK(aclrtMemset(device.get(), kBytes, 0x1234, 10));  // the value is used as a byte
  EXPECT_EQ(device.as<unsigned char>()[9], 0x34);
  EXPECT_EQ(device.as<unsigned char>()[10], 0x5a);
  HostBuffer pinned(4096);
  ACL_EXPECT_OK(aclrtMemset(pinned.get(), 4096, 1, 4096));  // pinned host memory is accepted
  ScopedStream stream;
  ACL_ASSERT_OK(aclrtMemsetAsync(device.as<char>() + 100, kBytes - 100, 0x66, 50, stream));
  ACL_ASSERT_OK(aclrtMemsetAsync(pinned.get(), 4096, 2, 4096, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(device.as<unsigned char>()[99], 0x5a);
  EXPECT_EQ(device.as<unsigned char>()[149], 0x66);
  EXPECT_EQ(device.as<unsigned char>()[150], 0x5a);
  EXPECT_EQ(pinned.as<unsigned char>()[4095], 2);

  ACL_EXPECT_OK(aclrtMemset(nullptr, 0, 0, 0));  // count 0: nothing to do
  ACL_EXPECT_ERROR(aclrtMemset(nullptr, 10, 0, 10), ACL_ERROR_INVALID_PARAM, "aclrtMemset");
  ACL_EXPECT_ERROR(aclrtMemset(device.get(), 10, 0, 11), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset");
  ACL_EXPECT_ERROR(aclrtMemsetAsync(device.get(), 10, 0, 11, stream), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemsetAsync");
  std::vector<unsigned char> pageable(64);
  ACL_EXPECT_ERROR(aclrtMemset(pageable.data(), 64, 0, 64), ACL_ERROR_INVALID_PARAM, "aclrtMemset");
  ACL_EXPECT_ERROR(aclrtMemset(device.as<char>() + kBytes + 24, 16, 0, 16), ACL_ERROR_INVALID_PARAM, "aclrtMemset");
  ACL_EXPECT_ERROR(aclrtMemsetAsync(device.get(), kBytes, 0, kBytes, &pageable), ACL_ERROR_INVALID_PARAM,
                   "aclrtMemsetAsync");
}

TEST(Memory, Copy2d) {
  // A 5 x 7 block out of a 16-byte-pitch host image into a 9-byte-pitch device image and back.
  constexpr size_t kWidth = 7, kHeight = 5, kHostPitch = 16, kDevicePitch = 9;
  std::vector<unsigned char> image(kHostPitch * kHeight);
  std::iota(image.begin(), image.end(), 0);
  DeviceBuffer device(kDevicePitch * kHeight);
  ACL_ASSERT_OK(aclrtMemset(device.get(), device.size(), 0xff, device.size()));
  ACL_ASSERT_OK(
      aclrtMemcpy2d(device.get(), kDevicePitch, image.data(), kHostPitch, kWidth, kHeight, ACL_MEMCPY_HOST_TO_DEVICE));
  for (size_t row = 0; row < kHeight; ++row) {
    for (size_t col = 0; col < kDevicePitch; ++col) {
      const unsigned char expected = col < kWidth ? image[row * kHostPitch + col] : 0xff;
      ASSERT_EQ(device.as<unsigned char>()[row * kDevicePitch + col], expected) << row << "," << col;
    }
  }
  HostBuffer back(kHostPitch * kHeight);
  std::memset(back.get(), 0, back.size());
  ScopedStream stream;
  ACL_ASSERT_OK(aclrtMemcpy2dAsync(back.get(), kHostPitch, device.get(), kDevicePitch, kWidth, kHeight,
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  for (size_t row = 0; row < kHeight; ++row) {
    EXPECT_EQ(std::memcmp(back.as<unsigned char>() + row * kHostPitch, image.data() + row * kHostPitch, kWidth), 0);
  }
  DeviceBuffer other(kDevicePitch * kHeight);
  ACL_ASSERT_OK(aclrtMemcpy2d(other.get(), kDevicePitch, device.get(), kDevicePitch, kWidth, kHeight,
                              ACL_MEMCPY_DEVICE_TO_DEVICE));
  for (size_t row = 0; row < kHeight; ++row) {
    EXPECT_EQ(std::memcmp(other.as<char>() + row * kDevicePitch, device.as<char>() + row * kDevicePitch, kWidth), 0);
  }

  // Argument checks.
  ACL_EXPECT_OK(aclrtMemcpy2d(nullptr, 0, nullptr, 0, 0, 3, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_EXPECT_ERROR(
      aclrtMemcpy2d(nullptr, kDevicePitch, image.data(), kHostPitch, kWidth, kHeight, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2d");
  ACL_EXPECT_ERROR(aclrtMemcpy2d(device.get(), 6, image.data(), kHostPitch, kWidth, kHeight, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2d");  // width > dpitch
  ACL_EXPECT_ERROR(
      aclrtMemcpy2d(device.get(), kDevicePitch, image.data(), 6, kWidth, kHeight, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2d");  // width > spitch
  ACL_EXPECT_ERROR(aclrtMemcpy2d(device.get(), kDevicePitch, image.data(), kHostPitch, kWidth, kHeight + 8,
                                 ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "dst");  // runs past the device allocation
  ACL_EXPECT_ERROR(
      aclrtMemcpy2d(image.data(), kHostPitch, image.data(), kHostPitch, kWidth, kHeight, ACL_MEMCPY_HOST_TO_HOST),
      ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2d");
  ACL_EXPECT_ERROR(aclrtMemcpy2d(device.get(), size_t{6} << 20, image.data(), size_t{6} << 20, 5000001, 1,
                                 ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy2d");
}

// A range that starts inside a live block and runs past its end is refused
// whatever the kind says; DEFAULT and HOST_TO_HOST took it for pageable host
// memory and copied past the block (docs/reliability.md R84).
TEST(Memory, CopiesRunningPastALiveBlockAreRefusedWhateverTheKind) {
  DeviceBuffer device(1000);  // usable up to 1000 rounded up, plus CANN's 32-byte tail
  std::vector<unsigned char> host(4096, 7);
  auto* inside = static_cast<char*>(device.get()) + 1000;
  for (const aclrtMemcpyKind kind : {ACL_MEMCPY_DEFAULT, ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE}) {
    ACL_EXPECT_ERROR(aclrtMemcpy(inside, 4096, host.data(), 4096, kind), ACL_ERROR_INVALID_PARAM, "runs past");
    ACL_EXPECT_ERROR(aclrtMemcpy(host.data(), 4096, inside, 4096, kind), ACL_ERROR_INVALID_PARAM, "runs past");
  }
  ACL_EXPECT_ERROR(aclrtMemcpy2d(inside, 4096, host.data(), 4096, 4096, 1, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM,
                   "runs past");
  void* pinned = nullptr;
  ACL_ASSERT_OK(aclrtMallocHost(&pinned, 4096));
  ScopedStream stream;
  ACL_EXPECT_ERROR(
      aclrtMemcpyAsync(static_cast<char*>(pinned) + 4000, 200, device.get(), 200, ACL_MEMCPY_DEVICE_TO_HOST, stream),
      ACL_ERROR_INVALID_PARAM, "runs past");
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
  ACL_EXPECT_OK(aclrtFreeHost(pinned));
}

// 2-D device-to-device copies within one allocation behave as a memmove of
// the rows: dst above src (rows copied last to first), below it, and pitches
// that differ (staged).
TEST(Memory, OverlappingTwoDimensionalCopiesReadEveryByteBeforeOverwritingIt) {
  constexpr size_t kBytes = 512;
  const std::vector<unsigned char> pattern = Pattern(kBytes, 5);
  struct Case {
    size_t dst_offset, dst_pitch, src_offset, src_pitch, width, height;
  };
  for (const Case& c : {Case{16, 16, 0, 16, 16, 8}, Case{0, 16, 16, 16, 16, 8}, Case{8, 32, 0, 32, 24, 6},
                        Case{40, 24, 0, 32, 20, 8}, Case{0, 32, 40, 24, 20, 8}}) {
    DeviceBuffer device(kBytes);
    ACL_ASSERT_OK(aclrtMemcpy(device.get(), kBytes, pattern.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    auto* base = static_cast<unsigned char*>(device.get());
    ACL_ASSERT_OK(aclrtMemcpy2d(base + c.dst_offset, c.dst_pitch, base + c.src_offset, c.src_pitch, c.width, c.height,
                                ACL_MEMCPY_DEVICE_TO_DEVICE));
    std::vector<unsigned char> want = pattern;
    for (size_t row = 0; row < c.height; ++row) {
      std::memcpy(want.data() + c.dst_offset + row * c.dst_pitch, pattern.data() + c.src_offset + row * c.src_pitch,
                  c.width);
    }
    EXPECT_EQ(std::memcmp(base, want.data(), kBytes), 0)
        << "dst +" << c.dst_offset << " pitch " << c.dst_pitch << ", src +" << c.src_offset << " pitch " << c.src_pitch;
  }
}

TEST(Memory, FreeWhileQueuedWorkStillUsesTheBlock) {
  // aclrtFree does not wait for the device, but the block outlives the queued work that uses it.
  // (A use-after-free on purpose: checker mode would rightly report it, so it is off here.)
  CheckerOff unchecked;
  ScopedStream stream;
  void* block = nullptr;
  constexpr size_t kBytes = 1 << 20;  // mmap-backed: touching it after munmap would crash
  ACL_ASSERT_OK(aclrtMalloc(&block, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  {
    StreamBlocker blocker(stream);
    ACL_ASSERT_OK(aclrtMemsetAsync(block, kBytes, 1, kBytes, stream));
    ACL_ASSERT_OK(aclrtFree(block));  // returns at once
    EXPECT_FALSE(blocker.left());
    ACL_EXPECT_ERROR(aclrtFree(block), ACL_ERROR_INVALID_PARAM, "aclrtFree");
  }
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
}

// A block freed while a task of a force-destroyed stream still runs on it: the
// stream is no longer registered, but its running task must still find the block
// mapped (before the fix the free unmapped it under the task: SIGSEGV).
TEST(Memory, FreeAfterForceDestroyWhileItsTaskStillUsesTheBlock) {
  CheckerOff unchecked;  // a use after free on purpose
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  constexpr size_t kBytes = 1 << 20;  // mmap-backed: touching it after munmap would crash
  GatedWrite gate;
  gate.bytes = kBytes;
  ACL_ASSERT_OK(aclrtMalloc(&gate.block, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "gated write", GatedWrite::Run, nullptr, &gate));
  ASSERT_TRUE(gate.WaitStarted());
  ACL_ASSERT_OK(aclrtDestroyStreamForce(stream));
  ACL_ASSERT_OK(aclrtFree(gate.block));
  gate.open.store(true);
  ACL_EXPECT_OK(aclrtSynchronizeDevice());  // waits for the force-destroyed stream's task
  EXPECT_TRUE(gate.wrote.load());
}

// The same while another thread is inside aclrtDestroyStream, draining the stream.
TEST(Memory, FreeWhileAnotherThreadDrainsTheStreamThatUsesTheBlock) {
  CheckerOff unchecked;
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  constexpr size_t kBytes = 1 << 20;
  GatedWrite gate;
  gate.bytes = kBytes;
  ACL_ASSERT_OK(aclrtMalloc(&gate.block, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "gated write", GatedWrite::Run, nullptr, &gate));
  ASSERT_TRUE(gate.WaitStarted());
  std::atomic<aclError> destroyed{-1};
  std::thread destroyer([&] { destroyed.store(aclrtDestroyStream(stream)); });
  // Once the handle is gone the other thread is draining the stream.
  aclrtStreamStatus status;
  EXPECT_TRUE(WaitUntil([&] { return aclrtStreamQuery(stream, &status) != ACL_SUCCESS; }));
  ACL_EXPECT_OK(aclrtFree(gate.block));
  gate.open.store(true);
  destroyer.join();
  EXPECT_EQ(destroyed.load(), ACL_SUCCESS);
  EXPECT_TRUE(gate.wrote.load());
}

}  // namespace
