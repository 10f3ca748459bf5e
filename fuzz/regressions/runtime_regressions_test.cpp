// Runtime bugs found by fuzz_runtime_sequence, one test each, named after the
// known-bug number of docs/reliability.md. Each test states the behaviour the
// fix must give; until then it fails (or, under the sanitizers, aborts).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "canopy/canopy_runtime.h"
#include "regression_environment.h"

namespace canopy::fuzz_regressions {
namespace {

constexpr size_t kGranularity = size_t{2} << 20;

// K12: aclrtDestroyStreamForce drops an event record that is still queued, so
// the event never completes: aclrtSynchronizeEvent (and every stream waiting on
// it) would wait forever. A dropped record must not leave its waiters stranded.
TEST(FuzzRegressionK12, ForceDestroyedStreamDoesNotStrandTheEventsItRecords) {
  ExpectNoCrash([] {
    aclrtStream stream = nullptr;
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    int busy_ms = 200;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SleepHostFunction, &busy_ms), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);  // queued behind the host function
    ASSERT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);  // drops the record
    // Bounded here so the test cannot hang: without the fix this times out (507047).
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 2000), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  });
}

// K12, second face: the pool records an event at canopyFreeAsync; when that
// record is dropped by aclrtDestroyStreamForce the block is never released.
TEST(FuzzRegressionK12, PoolBlockFreedOnAForceDestroyedStreamIsReleased) {
  ExpectNoCrash([] {
    ASSERT_EQ(canopyReleaseCachedMemory(), ACL_SUCCESS);
    const size_t free_before = FreeDeviceBytes();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int busy_ms = 200;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SleepHostFunction, &busy_ms), ACL_SUCCESS);
    void* block = nullptr;
    ASSERT_EQ(canopyMallocAsync(&block, size_t{1} << 20, stream), ACL_SUCCESS);
    ASSERT_EQ(canopyFreeAsync(block, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
    // The block is free once the work running at the destroy (the host function) is done.
    ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    ASSERT_EQ(canopyReleaseCachedMemory(), ACL_SUCCESS);
    EXPECT_EQ(FreeDeviceBytes(), free_before) << "the pool block was never given back";
  });
}

// K13: aclrtFree accepts a block that canopyMallocAsync handed out. The pool
// keeps it, and after canopyFreeAsync hands the freed memory out again.
TEST(FuzzRegressionK13, PoolDoesNotHandOutMemoryFreedWithAclrtFree) {
  ExpectNoCrash([] {
    const size_t size = size_t{64} << 10;
    void* block = nullptr;
    ASSERT_EQ(canopyMallocAsync(&block, size, nullptr), ACL_SUCCESS);
    const aclError freed = aclrtFree(block);
    if (freed != ACL_SUCCESS) {  // refusing a pool block is a fix too
      (void)aclGetRecentErrMsg();
      EXPECT_EQ(canopyFreeAsync(block, nullptr), ACL_SUCCESS);
      return;
    }
    (void)canopyFreeAsync(block, nullptr);
    (void)aclGetRecentErrMsg();
    void* again = nullptr;
    ASSERT_EQ(canopyMallocAsync(&again, size, nullptr), ACL_SUCCESS);
    EXPECT_EQ(canopyIsDeviceMemory(again, size), 1) << "canopyMallocAsync returned memory that is not allocated";
    EXPECT_EQ(aclrtMemset(again, size, 0, size), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(canopyFreeAsync(again, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  });
}

// K14: aclrtUnmapMem makes the range inaccessible at once, while a fill queued
// on it has not run yet: the fill then faults on the device engine. The unmap
// must wait for (or refuse while) queued work on the range.
TEST(FuzzRegressionK14, UnmapWhileAQueuedFillTargetsTheRangeDoesNotFault) {
  ExpectNoCrash([] {
    aclrtPhysicalMemProp prop{};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    void* range = nullptr;
    aclrtDrvMemHandle physical = nullptr;
    ASSERT_EQ(aclrtReserveMemAddress(&range, kGranularity, 0, nullptr, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocPhysical(&physical, kGranularity, &prop, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMapMem(range, kGranularity, 0, physical, 0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int busy_ms = 200;
    ASSERT_EQ(aclrtLaunchHostFunc(stream, SleepHostFunction, &busy_ms), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(range, kGranularity, 0x5a, kGranularity, stream), ACL_SUCCESS);
    const aclError unmapped = aclrtUnmapMem(range);  // the fill is still queued
    (void)aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();  // faults without the fix
    if (unmapped != ACL_SUCCESS) {
      EXPECT_EQ(aclrtUnmapMem(range), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreePhysical(physical), ACL_SUCCESS);
    EXPECT_EQ(aclrtReleaseMemAddress(range), ACL_SUCCESS);
  });
}

// K15: aclrtFree of memory a running task still uses defers the release to a
// task queued behind it; aclrtDestroyStreamForce drops that task and so releases
// the memory while the running task still writes it (SIGSEGV on the engine).
struct WritingTask {
  std::atomic<bool> started{false};
  std::atomic<bool> go{false};
  void* memory = nullptr;
  size_t size = 0;
};

int32_t WriteWhenTold(void* data) {
  auto* task = static_cast<WritingTask*>(data);
  task->started = true;
  while (!task->go) std::this_thread::yield();
  std::memset(task->memory, 0x5a, task->size);  // a kernel writing its output
  return 0;
}

TEST(FuzzRegressionK15, ForceDestroyDoesNotReleaseMemoryARunningTaskUses) {
  ExpectNoCrash([] {
    WritingTask task;
    task.size = size_t{1} << 20;  // large blocks come from mmap: a use after release faults
    ASSERT_EQ(aclrtMalloc(&task.memory, task.size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(canopyLaunchTask(stream, "writer", WriteWhenTold, nullptr, &task), ACL_SUCCESS);
    while (!task.started) std::this_thread::yield();
    // The thread exists before the free, so its stack cannot land in the freed pages.
    std::atomic<bool> freed{false};
    std::thread release_the_writer([&] {
      while (!freed) std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      task.go = true;
    });
    ASSERT_EQ(aclrtFree(task.memory), ACL_SUCCESS);  // released once the stream passes this point...
    // ...but the force-destroy drops the release task and frees the block now.
    EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
    freed = true;
    release_the_writer.join();
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  });
}

// K17: aclrtSynchronizeDevice waits only for the streams still registered, so a
// task still running on a stream destroyed with aclrtDestroyStreamForce (and the
// release of what that stream dropped) outlives it. A device synchronisation
// must cover all of the device's work.
std::atomic<bool> slow_host_function_started{false};
std::atomic<bool> slow_host_function_done{false};

void SlowHostFunction(void*) {
  slow_host_function_started = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  slow_host_function_done = true;
}

std::atomic<int> dropped_task_releases{0};

int32_t NeverRunTask(void*) { return 0; }
void CountRelease(void*) { ++dropped_task_releases; }

TEST(FuzzRegressionK17, SynchronizeDeviceWaitsForWorkOfForceDestroyedStreams) {
  ExpectNoCrash([] {
    for (bool with_timeout : {false, true}) {
      slow_host_function_started = false;
      slow_host_function_done = false;
      dropped_task_releases = 0;
      aclrtStream stream = nullptr;
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      ASSERT_EQ(aclrtLaunchHostFunc(stream, SlowHostFunction, nullptr), ACL_SUCCESS);
      // Queued behind the host function, so dropped by the force-destroy.
      ASSERT_EQ(canopyLaunchTask(stream, "dropped", NeverRunTask, CountRelease, nullptr), ACL_SUCCESS);
      // The host function must be running (not merely queued, which the
      // force-destroy would drop too): under load a fixed sleep was not enough.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!slow_host_function_started && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      ASSERT_TRUE(slow_host_function_started) << "the host function did not start within 10 s";
      ASSERT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
      if (with_timeout) {
        // A deadline shorter than the running work expires; a long one covers it.
        EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        EXPECT_STRNE(aclGetRecentErrMsg(), "");
        ASSERT_EQ(aclrtSynchronizeDeviceWithTimeout(10000), ACL_SUCCESS);
      } else {
        ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
      }
      EXPECT_TRUE(slow_host_function_done) << "the device synchronisation returned while device work was still running";
      EXPECT_EQ(dropped_task_releases.load(), 1) << "the dropped task was not released by the synchronisation";
    }
  });
}

// K20 (fuzz_runtime_sequence, task-release invariant, once K17's detour was
// gone): aclrtDestroyStreamForce of a stream with nothing running released what
// its dropped tasks own only when the last owner of the stream let go of it,
// which is the device engine's copy of its stream list, refreshed when the engine
// next looks (never, while it runs a long task of another stream; and no device
// synchronisation of the right device may follow).
std::atomic<bool> engine_blocked{false};
std::atomic<bool> unblock_engine{false};

int32_t BlockEngine(void*) {
  engine_blocked = true;
  while (!unblock_engine) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return 0;
}

TEST(FuzzRegressionK20, ForceDestroyOfAStreamWithNothingRunningReleasesAtOnce) {
  ExpectNoCrash([] {
    aclrtStream busy = nullptr, dropping = nullptr;
    ASSERT_EQ(aclrtCreateStream(&busy), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&dropping), ACL_SUCCESS);
    ASSERT_EQ(canopyLaunchTask(busy, "blocker", BlockEngine, nullptr, nullptr), ACL_SUCCESS);
    while (!engine_blocked) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    dropped_task_releases = 0;
    ASSERT_EQ(canopyLaunchTask(dropping, "dropped", NeverRunTask, CountRelease, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStreamForce(dropping), ACL_SUCCESS);
    EXPECT_EQ(dropped_task_releases.load(), 1) << "the dropped task's release waited for the engine";
    unblock_engine = true;
    EXPECT_EQ(aclrtSynchronizeStream(busy), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(busy), ACL_SUCCESS);
  });
}

}  // namespace
}  // namespace canopy::fuzz_regressions
