// aclInit / aclFinalize and everything around them. Each test leaves the
// runtime finalized, so the tests are independent of their order.
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include "runtime_test_util.h"

namespace {

using canopy_test::RecentMessage;

class LifecycleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("CANOPY_DEVICE_MEMORY");
    unsetenv("CANOPY_DEVICE_COUNT");
    unsetenv("CANOPY_SOC_NAME");
  }
  void TearDown() override {
    unsetenv("CANOPY_DEVICE_MEMORY");
    unsetenv("CANOPY_DEVICE_COUNT");
    unsetenv("CANOPY_SOC_NAME");
    aclFinalize();  // ACL_ERROR_REPEAT_FINALIZE when the test already finalized
  }
};

TEST_F(LifecycleTest, FinalizeWithoutInitSucceedsOnceThenRepeats) {
  // CANN tears down whatever exists the first time; the second call is a repeat.
  aclFinalize();
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_NE(RecentMessage().find("aclFinalize"), std::string::npos);
}

TEST_F(LifecycleTest, CallsBeforeInitAreRejected) {
  uint32_t count = 0;
  ACL_EXPECT_ERROR(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE, "aclrtGetDeviceCount");
  int32_t device = -1;
  ACL_EXPECT_ERROR(aclrtGetDevice(&device), ACL_ERROR_UNINITIALIZE, "aclrtGetDevice");
  ACL_EXPECT_ERROR(aclrtResetDevice(0), ACL_ERROR_UNINITIALIZE, "aclrtResetDevice");
  aclrtStream stream = nullptr;
  ACL_EXPECT_ERROR(aclrtCreateStream(&stream), ACL_ERROR_UNINITIALIZE, "aclrtCreateStream");
  ACL_EXPECT_ERROR(aclrtCreateStreamWithConfig(&stream, 0, 0), ACL_ERROR_UNINITIALIZE, "aclrtCreateStreamWithConfig");
  ACL_EXPECT_ERROR(aclrtSynchronizeStream(nullptr), ACL_ERROR_UNINITIALIZE, "aclrtSynchronizeStream");
  aclrtEvent event = nullptr;
  ACL_EXPECT_ERROR(aclrtCreateEvent(&event), ACL_ERROR_UNINITIALIZE, "aclrtCreateEvent");
  ACL_EXPECT_ERROR(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC), ACL_ERROR_UNINITIALIZE,
                   "aclrtCreateEventWithFlag");
  void* memory = nullptr;
  ACL_EXPECT_ERROR(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE, "aclrtMalloc");
  ACL_EXPECT_ERROR(aclrtMallocHost(&memory, 64), ACL_ERROR_UNINITIALIZE, "aclrtMallocHost");
  char bytes[16] = {};
  ACL_EXPECT_ERROR(aclrtMemcpy(bytes, 8, bytes + 8, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_UNINITIALIZE, "aclrtMemcpy");
  ACL_EXPECT_ERROR(aclrtLaunchHostFunc(nullptr, canopy_test::IncrementCounter, nullptr), ACL_ERROR_UNINITIALIZE,
                   "aclrtLaunchHostFunc");
  size_t free_bytes = 0, total_bytes = 0;
  ACL_EXPECT_ERROR(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes), ACL_ERROR_UNINITIALIZE, "aclrtGetMemInfo");
  int64_t value = 0;
  ACL_EXPECT_ERROR(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_ERROR_UNINITIALIZE, "aclrtGetSysParamOpt");
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  EXPECT_NE(RecentMessage().find("aclrtGetSocName"), std::string::npos);
  // The message is handed over once: a second read finds nothing, but never NULL.
  const char* empty = aclGetRecentErrMsg();
  ASSERT_NE(empty, nullptr);
  EXPECT_STREQ(empty, "");
}

TEST_F(LifecycleTest, InitTwiceIsHarmlessAndFinalizeTwiceRepeats) {
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_EXPECT_ERROR(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE, "aclInit");
  // The second aclInit harmed nothing: clients (llama.cpp) ignore it and go on.
  ACL_ASSERT_OK(aclrtSetDevice(0));
  void* memory = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_EXPECT_OK(aclrtFree(memory));
  ACL_EXPECT_OK(aclrtResetDevice(0));
  ACL_EXPECT_OK(aclFinalize());
  ACL_EXPECT_ERROR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize");
  // Everything after aclFinalize is rejected as before aclInit.
  ACL_EXPECT_ERROR(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE, "aclrtMalloc");
}

// CANN's aclrtSetDevice starts the runtime itself: CANN's own example programs
// call only aclnnInit (or nothing) before it. The first aclInit after that is
// not a repeat; a second one is.
TEST_F(LifecycleTest, SetDeviceWithoutInitStartsTheRuntime) {
  ACL_ASSERT_OK(aclrtSetDevice(0));
  int32_t device = -1;
  ACL_EXPECT_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  void* memory = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_EXPECT_OK(aclInit(nullptr));
  ACL_EXPECT_ERROR(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE, "aclInit");
  ACL_EXPECT_OK(aclrtFree(memory));
  ACL_EXPECT_OK(aclrtResetDevice(0));
  ACL_EXPECT_OK(aclFinalize());
  // After aclFinalize too: aclrtSetDevice starts a fresh runtime, which a
  // plain aclFinalize ends.
  ACL_ASSERT_OK(aclrtSetDevice(0));
  ACL_EXPECT_OK(aclrtResetDevice(0));
  ACL_EXPECT_OK(aclFinalize());
  ACL_EXPECT_ERROR(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE, "aclrtMalloc");
}

struct DrainCounters {
  std::atomic<int> tasks{0};
  std::atomic<int> host_functions{0};
};

void SlowHostFunction(void* counters) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  static_cast<DrainCounters*>(counters)->host_functions.fetch_add(1);
}

int32_t CountTask(void* counters) {
  static_cast<DrainCounters*>(counters)->tasks.fetch_add(1);
  return 0;
}

TEST_F(LifecycleTest, FinalizeDrainsPendingWork) {
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_ASSERT_OK(aclrtSetDevice(0));
  DrainCounters counters;
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  aclrtContext extra = nullptr;
  ACL_ASSERT_OK(aclrtCreateContext(&extra, 0));  // now current: its default stream is nullptr
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  constexpr int kTasks = 200;
  for (int i = 0; i < kTasks; ++i) {
    ACL_ASSERT_OK(canopyLaunchTask(stream, "count", CountTask, nullptr, &counters));
    ACL_ASSERT_OK(canopyLaunchTask(nullptr, "count", CountTask, nullptr, &counters));
  }
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, SlowHostFunction, &counters));
  ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
  ACL_ASSERT_OK(aclrtStreamWaitEvent(nullptr, event));
  ACL_ASSERT_OK(aclrtLaunchHostFunc(nullptr, SlowHostFunction, &counters));
  // Neither the streams, the event nor the contexts are released by the client.
  ACL_ASSERT_OK(aclFinalize());
  EXPECT_EQ(counters.tasks.load(), 2 * kTasks);
  EXPECT_EQ(counters.host_functions.load(), 2);
  // The handles died with the runtime.
  ACL_EXPECT_ERROR(aclrtSynchronizeStream(stream), ACL_ERROR_UNINITIALIZE, "aclrtSynchronizeStream");
}

TEST_F(LifecycleTest, ReinitAfterFinalizeStartsFresh) {
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_ASSERT_OK(aclrtSetDevice(0));
  size_t free_before = 0, total = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
  void* leaked = nullptr;  // freed only after the runtime was restarted
  ACL_ASSERT_OK(aclrtMalloc(&leaked, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtStream old_stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&old_stream));
  ACL_ASSERT_OK(aclFinalize());

  ACL_ASSERT_OK(aclInit(nullptr));
  // The thread's old context is gone: no device is current until aclrtSetDevice.
  int32_t device = -1;
  ACL_EXPECT_ERROR(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice");
  ACL_ASSERT_OK(aclrtSetDevice(0));
  size_t free_after = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  EXPECT_EQ(free_after, total);  // the earlier initialisation's allocation is not counted
  // A stale stream handle is an error, not a crash.
  aclrtStreamStatus status;
  EXPECT_NE(aclrtStreamQuery(old_stream, &status), ACL_SUCCESS);
  // Freeing the old block works and does not corrupt the new accounting.
  ACL_EXPECT_OK(aclrtFree(leaked));
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  EXPECT_EQ(free_after, total);
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  std::atomic<int> counter{0};
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, canopy_test::IncrementCounter, &counter));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(counter.load(), 1);
  ACL_EXPECT_OK(aclrtDestroyStream(stream));
  ACL_EXPECT_OK(aclrtResetDevice(0));
  ACL_EXPECT_OK(aclFinalize());
}

TEST_F(LifecycleTest, ConfigurationComesFromTheEnvironment) {
  ACL_ASSERT_OK(aclInit(nullptr));
  uint32_t count = 0;
  ACL_ASSERT_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 1u);  // default
  ASSERT_NE(aclrtGetSocName(), nullptr);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B3");
  ACL_ASSERT_OK(aclFinalize());

  setenv("CANOPY_DEVICE_COUNT", "3", 1);
  setenv("CANOPY_SOC_NAME", "Ascend910B4", 1);
  setenv("CANOPY_DEVICE_MEMORY", "64M", 1);
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_ASSERT_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 3u);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B4");
  ACL_ASSERT_OK(aclrtSetDevice(2));
  size_t free_bytes = 0, total = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
  EXPECT_EQ(total, size_t{64} << 20);
  EXPECT_EQ(free_bytes, total);
  ACL_EXPECT_ERROR(aclrtSetDevice(3), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice");
  ACL_EXPECT_OK(aclrtResetDevice(2));
  ACL_EXPECT_OK(aclFinalize());
}

TEST_F(LifecycleTest, AllocationBeyondDeviceMemoryFailsCleanly) {
  setenv("CANOPY_DEVICE_MEMORY", "64M", 1);
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_ASSERT_OK(aclrtSetDevice(0));
  constexpr size_t kMiB = size_t{1} << 20;
  void* too_big = nullptr;
  ACL_EXPECT_ERROR(aclrtMalloc(&too_big, 65 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "aclrtMalloc");
  EXPECT_EQ(too_big, nullptr);
  void* first = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&first, 40 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  void* second = nullptr;
  ACL_EXPECT_ERROR(aclrtMalloc(&second, 40 * kMiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "aclrtMalloc");
  // Physical memory for the virtual-memory API counts against the same budget.
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t granularity = 0;
  ACL_ASSERT_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &granularity));
  aclrtDrvMemHandle handle = nullptr;
  const size_t physical_size = (32 * kMiB + granularity - 1) / granularity * granularity;
  ACL_EXPECT_ERROR(aclrtMallocPhysical(&handle, physical_size, &prop, 0), ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "aclrtMallocPhysical");
  // Nothing leaked: after freeing, the big block fits.
  ACL_ASSERT_OK(aclrtFree(first));
  ACL_ASSERT_OK(aclrtMalloc(&second, 60 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_EXPECT_OK(aclrtFree(second));
  // The caching allocator reports the same failure.
  void* cached = nullptr;
  ACL_EXPECT_ERROR(canopyMallocAsync(&cached, 65 * kMiB, nullptr), ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc");
  ACL_EXPECT_OK(aclrtResetDevice(0));
  ACL_EXPECT_OK(aclFinalize());
}

TEST_F(LifecycleTest, ResetDeviceReleasesTheDefaultContextAtTheLastReference) {
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_ASSERT_OK(aclrtSetDevice(0));
  ACL_ASSERT_OK(aclrtSetDevice(0));  // two references
  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&context));
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  void* memory = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&memory, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  std::atomic<int> counter{0};
  DrainCounters slow;
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, SlowHostFunction, &slow));
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, canopy_test::IncrementCounter, &counter));

  ACL_ASSERT_OK(aclrtResetDevice(0));  // one reference left: everything still works
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(counter.load(), 1);
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, canopy_test::IncrementCounter, &counter));

  ACL_ASSERT_OK(aclrtResetDevice(0));  // the last one: drains and releases the default context
  EXPECT_EQ(counter.load(), 2);
  aclrtStreamStatus status;
  EXPECT_NE(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
  ACL_EXPECT_ERROR(aclrtSetCurrentContext(context), ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext");
  // Live allocations stay safe: the memory is still there and can be freed.
  std::memset(memory, 0x5a, 4096);
  ACL_EXPECT_OK(aclrtFree(memory));
  // The device can be set up again.
  ACL_ASSERT_OK(aclrtSetDevice(0));
  ACL_ASSERT_OK(aclrtLaunchHostFunc(nullptr, canopy_test::IncrementCounter, &counter));
  ACL_ASSERT_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(counter.load(), 3);
  ACL_EXPECT_OK(aclrtResetDevice(0));
  ACL_EXPECT_OK(aclFinalize());
}

// A host function that calls a lifecycle function and records what it returned.
struct LifecycleCall {
  std::function<aclError()> call;
  std::atomic<aclError> status{-1};
  std::atomic<bool> returned{false};
  std::string message;
  static void Run(void* self) {
    auto* call = static_cast<LifecycleCall*>(self);
    call->status.store(call->call());
    call->message = RecentMessage();
    call->returned.store(true);
  }
};

// aclrtDestroyContext / aclrtResetDevice / aclFinalize of the host function's own
// device wait for that host function: they are refused, as aclrtSynchronizeStream
// is, instead of deadlocking (before the fix the host function never returned).
TEST_F(LifecycleTest, LifecycleCallsFromAHostFunctionOfTheirOwnDeviceAreRefused) {
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_ASSERT_OK(aclrtSetDevice(0));
  aclrtContext primary = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&primary));
  aclrtContext created = nullptr;
  ACL_ASSERT_OK(aclrtCreateContext(&created, 0));
  aclrtStream stream = nullptr;  // a stream of the created context
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  struct Case {
    const char* function;
    aclrtStream stream;
    std::function<aclError()> call;
  };
  const Case cases[] = {
      {"aclrtDestroyContext", stream, [&] { return aclrtDestroyContext(created); }},
      {"aclrtResetDevice", nullptr, [] { return aclrtResetDevice(0); }},
      {"aclrtResetDeviceForce", nullptr, [] { return aclrtResetDeviceForce(0); }},
      {"aclFinalize", stream, [] { return aclFinalize(); }},
  };
  for (const Case& test : cases) {
    SCOPED_TRACE(test.function);
    ACL_ASSERT_OK(aclrtSetCurrentContext(test.stream == nullptr ? primary : created));
    LifecycleCall call;
    call.call = test.call;
    ACL_ASSERT_OK(aclrtLaunchHostFunc(test.stream, LifecycleCall::Run, &call));
    ASSERT_TRUE(canopy_test::WaitUntil([&] { return call.returned.load(); })) << "the host function deadlocked";
    EXPECT_EQ(call.status.load(), ACL_ERROR_RT_INTERNAL_ERROR);
    EXPECT_NE(call.message.find(test.function), std::string::npos) << call.message;
    EXPECT_NE(call.message.find("host function"), std::string::npos) << call.message;
    ACL_EXPECT_OK(aclrtSynchronizeStream(test.stream));
  }
  // Everything still works and is released from the client's own thread.
  ACL_EXPECT_OK(aclrtDestroyStream(stream));
  ACL_EXPECT_OK(aclrtDestroyContext(created));
  ACL_EXPECT_OK(aclrtResetDevice(0));
  ACL_EXPECT_OK(aclFinalize());
}

// aclFinalize drains the streams without its lock held (host functions may call
// the API meanwhile); a racing aclrtSetDevice / aclrtCreateContext must not slip
// a new context into the teardown (before the fix it did, and the context
// outlived its device).
TEST_F(LifecycleTest, SetDeviceDuringFinalizeIsRefused) {
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_ASSERT_OK(aclrtSetDevice(0));
  std::atomic<bool> raced{false};
  ACL_ASSERT_OK(aclrtLaunchHostFunc(
      nullptr,
      [](void* flag) { canopy_test::WaitUntil([&] { return static_cast<std::atomic<bool>*>(flag)->load(); }); },
      &raced));
  std::atomic<aclError> finalized{-1};
  std::thread finalizer([&] { finalized.store(aclFinalize()); });
  // Once the default context is gone from the table, aclFinalize is draining it.
  aclrtContext current = nullptr;
  EXPECT_TRUE(canopy_test::WaitUntil([&] { return aclrtGetCurrentContext(&current) != ACL_SUCCESS; }));
  const aclError set = aclrtSetDevice(0);
  const std::string set_message = RecentMessage();
  aclrtContext created = nullptr;
  const aclError create = aclrtCreateContext(&created, 0);
  raced.store(true);
  finalizer.join();
  EXPECT_EQ(finalized.load(), ACL_SUCCESS);
  EXPECT_EQ(set, ACL_ERROR_UNINITIALIZE);
  EXPECT_NE(set_message.find("aclFinalize"), std::string::npos) << set_message;
  EXPECT_EQ(create, ACL_ERROR_UNINITIALIZE);
  // The next initialisation starts clean.
  ACL_ASSERT_OK(aclInit(nullptr));
  ACL_ASSERT_OK(aclrtSetDevice(0));
  ACL_EXPECT_OK(aclrtResetDevice(0));
  ACL_EXPECT_OK(aclFinalize());
}

}  // namespace
