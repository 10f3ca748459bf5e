// canopyMallocAsync / canopyFreeAsync: a block freed on a stream is reused by
// that stream at once and by other streams only once the free has passed.
#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

TEST(CachingAllocator, ArgumentChecks) {
  void* block = nullptr;
  ACL_EXPECT_ERROR(canopyMallocAsync(nullptr, 64, nullptr), ACL_ERROR_INVALID_PARAM, "canopyMallocAsync");
  ACL_EXPECT_ERROR(canopyMallocAsync(&block, 0, nullptr), ACL_ERROR_INVALID_PARAM, "canopyMallocAsync");
  int not_a_stream = 0;
  ACL_EXPECT_ERROR(canopyMallocAsync(&block, 64, &not_a_stream), ACL_ERROR_INVALID_PARAM, "canopyMallocAsync");
  ACL_EXPECT_ERROR(canopyFreeAsync(nullptr, nullptr), ACL_ERROR_INVALID_PARAM, "canopyFreeAsync");
  int foreign = 0;
  ACL_EXPECT_ERROR(canopyFreeAsync(&foreign, nullptr), ACL_ERROR_INVALID_PARAM, "canopyFreeAsync");
  ACL_ASSERT_OK(canopyMallocAsync(&block, 1000, nullptr));
  EXPECT_EQ(canopyIsDeviceMemory(block, 1024), 1);  // rounded up to 512 bytes
  ACL_ASSERT_OK(canopyFreeAsync(block, nullptr));
  ACL_EXPECT_ERROR(canopyFreeAsync(block, nullptr), ACL_ERROR_INVALID_PARAM, "canopyFreeAsync");  // twice
  ACL_EXPECT_OK(aclrtSynchronizeStream(nullptr));
}

TEST(CachingAllocator, SameStreamReusesAtOnce) {
  ScopedStream stream;
  StreamBlocker blocker(stream);  // nothing on the stream has run yet
  void* first = nullptr;
  ACL_ASSERT_OK(canopyMallocAsync(&first, 3000, stream));
  ACL_ASSERT_OK(canopyFreeAsync(first, stream));
  void* second = nullptr;
  ACL_ASSERT_OK(canopyMallocAsync(&second, 2800, stream));  // same 3072-byte class
  EXPECT_EQ(second, first);                                 // stream order makes the reuse safe
  ACL_ASSERT_OK(canopyFreeAsync(second, stream));
}

TEST(CachingAllocator, OtherStreamsReuseOnlyAfterTheFreeHasPassed) {
  ScopedStream owner, other;
  void* block = nullptr;
  void* elsewhere = nullptr;
  {
    StreamBlocker blocker(owner);
    ACL_ASSERT_OK(canopyMallocAsync(&block, 1 << 16, owner));
    ACL_ASSERT_OK(canopyFreeAsync(block, owner));
    // The owner has not reached the free: another stream must not get the block.
    ACL_ASSERT_OK(canopyMallocAsync(&elsewhere, 1 << 16, other));
    EXPECT_NE(elsewhere, block);
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(owner));
  void* reused = nullptr;
  ACL_ASSERT_OK(canopyMallocAsync(&reused, 1 << 16, other));
  EXPECT_EQ(reused, block);
  ACL_ASSERT_OK(canopyFreeAsync(reused, other));
  ACL_ASSERT_OK(canopyFreeAsync(elsewhere, other));
  ACL_ASSERT_OK(aclrtSynchronizeStream(other));
}

// While a stream captures, a block its eager work freed but has not passed is
// not handed to the capture: a replay on another stream is not ordered after
// that work, which once overwrote the model's fresh block (0x11 over 0x22).
TEST(CachingAllocator, ACapturingStreamDoesNotTakeABlockItsEagerWorkStillWrites) {
  ScopedStream owner, replay;
  constexpr size_t kBytes = 4096;
  void* eager = nullptr;
  void* captured = nullptr;
  aclmdlRI model = nullptr;
  {
    StreamBlocker blocker(owner);  // the eager fill below waits behind it
    ACL_ASSERT_OK(canopyMallocAsync(&eager, kBytes, owner));
    ACL_ASSERT_OK(aclrtMemsetAsync(eager, kBytes, 0x11, kBytes, owner));
    ACL_ASSERT_OK(canopyFreeAsync(eager, owner));
    ACL_ASSERT_OK(aclmdlRICaptureBegin(owner, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_ASSERT_OK(canopyMallocAsync(&captured, kBytes, owner));
    ACL_ASSERT_OK(aclrtMemsetAsync(captured, kBytes, 0x22, kBytes, owner));
    ACL_ASSERT_OK(aclmdlRICaptureEnd(owner, &model));
    EXPECT_NE(captured, eager) << "the capture took a block the stream's pending fill still writes";
    ACL_ASSERT_OK(aclmdlRIExecuteAsync(model, replay));
    ACL_ASSERT_OK(aclrtSynchronizeStream(replay));
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(owner));
  std::vector<unsigned char> host(kBytes);
  ACL_ASSERT_OK(aclrtMemcpy(host.data(), kBytes, captured, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(host[0], 0x22);
  EXPECT_EQ(host[kBytes - 1], 0x22);
  ACL_ASSERT_OK(aclmdlRIDestroy(model));
  ACL_ASSERT_OK(canopyFreeAsync(captured, owner));
  ACL_ASSERT_OK(aclrtSynchronizeStream(owner));
}

TEST(CachingAllocator, HotLoopsDoNotGrowDeviceMemory) {
  ScopedStream stream;
  ACL_ASSERT_OK(canopyReleaseCachedMemory());
  size_t free_before = 0, total = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
  for (int i = 0; i < 1000; ++i) {
    void* a = nullptr;
    void* b = nullptr;
    ACL_ASSERT_OK(canopyMallocAsync(&a, 1 << 20, stream));
    ACL_ASSERT_OK(canopyMallocAsync(&b, 4096 + i, stream));
    ACL_ASSERT_OK(aclrtMemsetAsync(a, 1 << 20, i, 64, stream));
    ACL_ASSERT_OK(canopyFreeAsync(b, stream));
    ACL_ASSERT_OK(canopyFreeAsync(a, stream));
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  size_t free_during = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_during, &total));
  EXPECT_GE(free_during + (size_t{4} << 20), free_before);  // a handful of blocks, not a thousand
  ACL_ASSERT_OK(canopyReleaseCachedMemory());
  size_t free_after = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  EXPECT_EQ(free_after, free_before);
}

// canopyReleaseCachedMemory after the stream that freed a block was force-destroyed
// while its task still used the block: the release must wait for that task.
TEST(CachingAllocator, ReleaseCachedMemoryWaitsForATaskOfAForceDestroyedStream) {
  CheckerOff unchecked;
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  constexpr size_t kBytes = 1 << 20;  // mmap-backed: touching it after munmap would crash
  GatedWrite gate;
  gate.bytes = kBytes;
  ACL_ASSERT_OK(canopyMallocAsync(&gate.block, kBytes, stream));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "gated write", GatedWrite::Run, nullptr, &gate));
  ACL_ASSERT_OK(canopyFreeAsync(gate.block, stream));
  ASSERT_TRUE(gate.WaitStarted());
  ACL_ASSERT_OK(aclrtDestroyStreamForce(stream));
  ACL_ASSERT_OK(canopyReleaseCachedMemory());
  gate.open.store(true);
  ACL_EXPECT_OK(aclrtSynchronizeDevice());
  EXPECT_TRUE(gate.wrote.load());
}

// A block freed behind a running task of a stream that is then force-destroyed
// is not free yet: the task still writes it. Another stream must not get it
// before that task has finished (the dropped free's record resolves only then).
TEST(CachingAllocator, ABlockFreedBehindARunningTaskOfAForceDestroyedStreamIsNotReusedEarly) {
  aclrtStream doomed = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&doomed));
  constexpr size_t kBytes = 1 << 20;
  GatedWrite gate;
  gate.bytes = kBytes;
  ACL_ASSERT_OK(canopyMallocAsync(&gate.block, kBytes, doomed));
  ACL_ASSERT_OK(canopyLaunchTask(doomed, "gated write", GatedWrite::Run, nullptr, &gate));
  ACL_ASSERT_OK(canopyFreeAsync(gate.block, doomed));
  ASSERT_TRUE(gate.WaitStarted());
  ACL_ASSERT_OK(aclrtDestroyStreamForce(doomed));
  ScopedStream other;
  void* taken = nullptr;
  ACL_ASSERT_OK(canopyMallocAsync(&taken, kBytes, other));
  EXPECT_NE(taken, gate.block) << "another stream got a block that a running task still writes";
  gate.open.store(true);
  ACL_EXPECT_OK(aclrtSynchronizeDevice());
  EXPECT_TRUE(gate.wrote.load());
  ACL_EXPECT_OK(canopyFreeAsync(taken, other));
  ACL_EXPECT_OK(aclrtSynchronizeStream(other));
}

}  // namespace
