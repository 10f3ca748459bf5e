// Devices, contexts, memory information, peer access and system parameters.
// The binary runs with CANOPY_DEVICE_COUNT=2 and CANOPY_DEVICE_MEMORY=1G.
#include <cstring>
#include <thread>
#include <vector>

#include "canopy/canopy_runtime.h"
#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

constexpr size_t kDeviceMemory = size_t{1} << 30;

TEST(Device, CountAndSocName) {
  uint32_t count = 0;
  ACL_ASSERT_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 2u);
  ACL_EXPECT_ERROR(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount");
  const char* soc = aclrtGetSocName();
  ASSERT_NE(soc, nullptr);
  EXPECT_STREQ(soc, "Ascend910B3");
}

TEST(Device, SetAndGetDevice) {
  ContextGuard guard;
  int32_t device = -1;
  ACL_ASSERT_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  ACL_EXPECT_ERROR(aclrtGetDevice(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtGetDevice");
  ACL_EXPECT_ERROR(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice");
  ACL_EXPECT_ERROR(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice");
  ACL_EXPECT_ERROR(aclrtResetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice");
  ACL_ASSERT_OK(aclrtSetDevice(1));
  ACL_ASSERT_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 1);
  ACL_EXPECT_OK(aclrtResetDevice(1));
}

TEST(Device, ThreadWithoutDeviceHasNoContext) {
  aclrtContext main_context = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&main_context));
  std::thread worker([&] {
    int32_t device = -1;
    ACL_EXPECT_ERROR(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice");
    aclrtContext context = nullptr;
    ACL_EXPECT_ERROR(aclrtGetCurrentContext(&context), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext");
    aclrtStream stream = nullptr;
    ACL_EXPECT_ERROR(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
    ACL_EXPECT_ERROR(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeStream");
    void* memory = nullptr;
    ACL_EXPECT_ERROR(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, "aclrtMalloc");
    size_t free_bytes, total;
    ACL_EXPECT_ERROR(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetMemInfo");
    ACL_EXPECT_ERROR(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeDevice");
    // Contexts can be shared between threads.
    ACL_EXPECT_OK(aclrtSetCurrentContext(main_context));
    ACL_EXPECT_OK(aclrtGetDevice(&device));
    EXPECT_EQ(device, 0);
    std::atomic<int> counter{0};
    ACL_EXPECT_OK(aclrtLaunchHostFunc(nullptr, IncrementCounter, &counter));
    ACL_EXPECT_OK(aclrtSynchronizeStream(nullptr));
    EXPECT_EQ(counter.load(), 1);
  });
  worker.join();
}

TEST(Device, MemInfoFollowsAllocations) {
  size_t free_before = 0, total = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
  EXPECT_EQ(total, kDeviceMemory);
  EXPECT_LE(free_before, total);
  constexpr size_t kBlock = size_t{8} << 20;
  void* block = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&block, kBlock, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free_during = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_during, &total));
  EXPECT_LE(free_during + kBlock, free_before);
  ACL_ASSERT_OK(aclrtFree(block));
  size_t free_after = 0;
  ACL_ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  EXPECT_EQ(free_after, free_before);
  // Every kind of memory reports the one pool; an unknown one reports nothing.
  for (aclrtMemAttr attr : {ACL_DDR_MEM, ACL_HBM_MEM_HUGE, ACL_MEM_NORMAL, ACL_MEM_P2P_HUGE1G}) {
    size_t attr_free = 0, attr_total = 0;
    ACL_EXPECT_OK(aclrtGetMemInfo(attr, &attr_free, &attr_total));
    EXPECT_EQ(attr_total, kDeviceMemory);
  }
  size_t none_free = 1, none_total = 1;
  ACL_EXPECT_OK(aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &none_free, &none_total));
  EXPECT_EQ(none_free, 0u);
  EXPECT_EQ(none_total, 0u);
  ACL_EXPECT_ERROR(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total), ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo");
  ACL_EXPECT_ERROR(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo");
}

TEST(Device, AllocationBeyondDeviceMemoryFails) {
  void* memory = nullptr;
  ACL_EXPECT_ERROR(aclrtMalloc(&memory, kDeviceMemory + 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "aclrtMalloc");
  EXPECT_EQ(memory, nullptr);
  ACL_EXPECT_ERROR(aclrtMalloc(&memory, ~size_t{0}, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "aclrtMalloc");
  // Each device has its own budget.
  std::vector<void*> blocks;
  constexpr size_t kBlock = size_t{256} << 20;
  for (int i = 0; i < 3; ++i) {
    void* block = nullptr;
    ACL_ASSERT_OK(aclrtMalloc(&block, kBlock, ACL_MEM_MALLOC_HUGE_FIRST));
    blocks.push_back(block);
  }
  ACL_EXPECT_ERROR(aclrtMalloc(&memory, kBlock + (size_t{1} << 20), ACL_MEM_MALLOC_HUGE_FIRST),
                   ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc");
  {
    ContextGuard guard;
    ACL_ASSERT_OK(aclrtSetDevice(1));
    ACL_ASSERT_OK(aclrtMalloc(&memory, kBlock + (size_t{1} << 20), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_EXPECT_OK(aclrtFree(memory));
    ACL_EXPECT_OK(aclrtResetDevice(1));
  }
  for (void* block : blocks) ACL_EXPECT_OK(aclrtFree(block));
}

TEST(Device, ContextsCreateSwitchAndDestroy) {
  ContextGuard guard;
  aclrtContext context = nullptr;
  ACL_EXPECT_ERROR(aclrtCreateContext(nullptr, 1), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext");
  ACL_EXPECT_ERROR(aclrtCreateContext(&context, 5), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext");
  ACL_ASSERT_OK(aclrtCreateContext(&context, 1));
  aclrtContext current = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&current));
  EXPECT_EQ(current, context);  // a new context becomes current
  int32_t device = -1;
  ACL_ASSERT_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 1);
  // The context's streams run on device 1.
  ScopedStream stream;
  std::atomic<int> counter{0};
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, IncrementCounter, &counter));
  ACL_ASSERT_OK(aclrtLaunchHostFunc(nullptr, IncrementCounter, &counter));
  ACL_ASSERT_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(counter.load(), 2);
  ACL_ASSERT_OK(aclrtSetCurrentContext(guard.saved()));
  ACL_ASSERT_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  ACL_ASSERT_OK(aclrtDestroyStream(stream.release()));
  ACL_ASSERT_OK(aclrtDestroyContext(context));
  ACL_EXPECT_ERROR(aclrtDestroyContext(context), ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext");
  ACL_EXPECT_ERROR(aclrtSetCurrentContext(context), ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext");
  ACL_EXPECT_ERROR(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext");
  ACL_EXPECT_ERROR(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext");
  int not_a_context = 0;
  ACL_EXPECT_ERROR(aclrtDestroyContext(&not_a_context), ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext");
  ACL_EXPECT_ERROR(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext");
  // The default context of a device is released by aclrtResetDevice only.
  ACL_EXPECT_ERROR(aclrtDestroyContext(guard.saved()), ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext");
}

TEST(Device, DestroyingTheCurrentContextLeavesNone) {
  ContextGuard guard;
  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtCreateContext(&context, 0));
  ACL_ASSERT_OK(aclrtDestroyContext(context));
  aclrtContext current = nullptr;
  ACL_EXPECT_ERROR(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext");
  // A context created later at the same address is not taken for the old one.
  ACL_EXPECT_ERROR(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeStream");
}

TEST(Device, DestroyContextDrainsItsStreams) {
  ContextGuard guard;
  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtCreateContext(&context, 1));
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  std::atomic<int> counter{0};
  for (int i = 0; i < 100; ++i) {
    ACL_ASSERT_OK(canopyLaunchTask(stream, "count", IncrementCounterTask, nullptr, &counter));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(nullptr, IncrementCounter, &counter));
  }
  ACL_ASSERT_OK(aclrtDestroyContext(context));
  EXPECT_EQ(counter.load(), 200);
  aclrtStreamStatus status;
  ACL_EXPECT_ERROR(aclrtStreamQuery(stream, &status), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery");
}

TEST(Device, PeerAccess) {
  int32_t can = -1;
  ACL_ASSERT_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(can, 1);
  ACL_ASSERT_OK(aclrtDeviceCanAccessPeer(&can, 1, 0));
  EXPECT_EQ(can, 1);
  ACL_EXPECT_ERROR(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer");
  ACL_EXPECT_ERROR(aclrtDeviceCanAccessPeer(&can, 0, 2), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceCanAccessPeer");
  ACL_EXPECT_ERROR(aclrtDeviceCanAccessPeer(nullptr, 0, 1), ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer");
  // Enabling twice is harmless: llama.cpp enables before every peer copy.
  ACL_EXPECT_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ACL_EXPECT_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ACL_EXPECT_ERROR(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtDeviceEnablePeerAccess");
  ACL_EXPECT_ERROR(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM, "aclrtDeviceEnablePeerAccess");
  ACL_EXPECT_ERROR(aclrtDeviceEnablePeerAccess(9, 0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceEnablePeerAccess");
  ACL_EXPECT_OK(aclrtDeviceDisablePeerAccess(1));
  ACL_EXPECT_ERROR(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_INVALID_PARAM, "aclrtDeviceDisablePeerAccess");
}

TEST(Device, CopyBetweenDevices) {
  constexpr size_t kBytes = 1 << 16;
  std::vector<unsigned char> pattern(kBytes), result(kBytes, 0);
  for (size_t i = 0; i < kBytes; ++i) pattern[i] = static_cast<unsigned char>(i * 7 + 3);
  DeviceBuffer on_zero(kBytes);
  void* on_one = nullptr;
  {
    ContextGuard guard;
    ACL_ASSERT_OK(aclrtSetDevice(1));
    ACL_ASSERT_OK(aclrtMalloc(&on_one, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_EXPECT_OK(aclrtResetDevice(1));
  }
  ACL_ASSERT_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ACL_ASSERT_OK(aclrtMemcpy(on_zero.get(), kBytes, pattern.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_ASSERT_OK(aclrtMemcpy(on_one, kBytes, on_zero.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ACL_ASSERT_OK(aclrtMemcpy(result.data(), kBytes, on_one, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(result, pattern);
  ACL_EXPECT_OK(aclrtDeviceDisablePeerAccess(1));
  ACL_EXPECT_OK(aclrtFree(on_one));
}

struct Order {
  std::mutex mutex;
  std::vector<int> steps;
  void Add(int step) {
    std::lock_guard lock(mutex);
    steps.push_back(step);
  }
};
struct Step {
  Order* order;
  int value;
};
void RecordStep(void* step) {
  auto* s = static_cast<Step*>(step);
  s->order->Add(s->value);
}

TEST(Device, EventWaitAcrossDevices) {
  ContextGuard guard;
  aclrtContext device_one = nullptr;
  ACL_ASSERT_OK(aclrtCreateContext(&device_one, 1));
  aclrtStream producer = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&producer));
  ACL_ASSERT_OK(aclrtSetCurrentContext(guard.saved()));
  ScopedStream consumer;  // on device 0
  aclrtEvent done = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&done));

  Order order;
  Step produced{&order, 1}, consumed{&order, 2};
  {
    StreamBlocker blocker(producer);
    ACL_ASSERT_OK(aclrtLaunchHostFunc(producer, RecordStep, &produced));
    ACL_ASSERT_OK(aclrtRecordEvent(done, producer));
    ACL_ASSERT_OK(aclrtStreamWaitEvent(consumer, done));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(consumer, RecordStep, &consumed));
    ASSERT_TRUE(blocker.WaitEntered());
    aclrtStreamStatus status;
    ACL_ASSERT_OK(aclrtStreamQuery(consumer, &status));
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);  // it cannot pass the wait yet
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(consumer));
  EXPECT_EQ(order.steps, (std::vector<int>{1, 2}));
  ACL_EXPECT_OK(aclrtDestroyEvent(done));
  ACL_EXPECT_OK(aclrtDestroyContext(device_one));  // also destroys `producer`
}

TEST(Device, SynchronizeDeviceWaitsForEveryStream) {
  std::atomic<int> counter{0};
  ScopedStream a, b;
  for (int i = 0; i < 50; ++i) {
    ACL_ASSERT_OK(aclrtLaunchHostFunc(a, IncrementCounter, &counter));
    ACL_ASSERT_OK(canopyLaunchTask(b, "count", IncrementCounterTask, nullptr, &counter));
    ACL_ASSERT_OK(canopyLaunchTask(nullptr, "count", IncrementCounterTask, nullptr, &counter));
  }
  ACL_ASSERT_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(counter.load(), 150);
  {
    StreamBlocker blocker(a);
    ACL_EXPECT_ERROR(aclrtSynchronizeDeviceWithTimeout(20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                     "aclrtSynchronizeDeviceWithTimeout");
  }
  ACL_EXPECT_OK(aclrtSynchronizeDeviceWithTimeout(-1));
  ACL_EXPECT_ERROR(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSynchronizeDeviceWithTimeout");
  ACL_EXPECT_ERROR(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSynchronizeDeviceWithTimeout");
}

TEST(Device, ResetDeviceWithLiveAllocationsAndStreamsStaysSafe) {
  // A second thread takes its own reference on device 1, works, and resets it
  // while memory and a stream are still alive (as llama.cpp's teardown does).
  void* memory = nullptr;
  aclrtStream stream = nullptr;
  std::atomic<int> counter{0};
  std::thread worker([&] {
    ACL_ASSERT_OK(aclrtSetDevice(1));
    ACL_ASSERT_OK(aclrtSetDevice(1));  // llama.cpp sets the device more than once
    ACL_ASSERT_OK(aclrtMalloc(&memory, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_ASSERT_OK(aclrtCreateStream(&stream));
    ACL_ASSERT_OK(aclrtMemsetAsync(memory, 1 << 20, 0x3c, 1 << 20, stream));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, IncrementCounter, &counter));
    ACL_ASSERT_OK(aclrtSynchronizeDevice());
    ACL_ASSERT_OK(aclrtResetDevice(1));
    // Still one reference: the stream and the memory are usable and can be released.
    ACL_EXPECT_OK(aclrtDestroyStream(stream));
    ACL_EXPECT_OK(aclrtResetDevice(1));
  });
  worker.join();
  EXPECT_EQ(counter.load(), 1);
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(static_cast<unsigned char*>(memory)[12345], 0x3c);
  ACL_EXPECT_OK(aclrtFree(memory));
}

TEST(Device, SysParamOpt) {
  int64_t value = -1;
  ACL_ASSERT_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 0);  // off until set
  for (int64_t mode : {1, 2, 3, 0}) {
    ACL_ASSERT_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, mode));
    ACL_ASSERT_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
    EXPECT_EQ(value, mode);
  }
  // A value out of range is the runtime's 107000, an unknown option acl's 100000 (CANN's two layers).
  ACL_EXPECT_ERROR(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetSysParamOpt");
  ACL_EXPECT_ERROR(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSetSysParamOpt");
  ACL_EXPECT_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
  ACL_EXPECT_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0));
  ACL_EXPECT_ERROR(aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(42), 0), ACL_ERROR_INVALID_PARAM,
                   "aclrtSetSysParamOpt");
  ACL_EXPECT_ERROR(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtGetSysParamOpt");
}

// aclrtCtxSetSysParamOpt, as CANN's docs enable deterministic computing: each
// context reads back its own values, and the value set also becomes the
// process value (CANN's runtime stores both), which the ops follow.
TEST(Device, ContextSysParamOpt) {
  ACL_ASSERT_OK(aclrtSetDevice(0));
  aclrtContext primary = nullptr, other = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&primary));
  ACL_ASSERT_OK(aclrtCreateContext(&other, 0));  // current from here
  int64_t value = -1;
  ACL_EXPECT_ERROR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                   "aclrtCtxGetSysParamOpt");
  ACL_ASSERT_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
  ACL_ASSERT_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 1);
  ACL_ASSERT_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 1);
  EXPECT_EQ(canopyDeterministicMode(), 1);

  ACL_ASSERT_OK(aclrtSetCurrentContext(primary));
  ACL_EXPECT_ERROR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                   "aclrtCtxGetSysParamOpt");
  ACL_ASSERT_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0));
  EXPECT_EQ(canopyDeterministicMode(), 0);
  ACL_ASSERT_OK(aclrtSetCurrentContext(other));
  ACL_ASSERT_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 1);

  // The options a context takes (not ACL_OPT_ENABLE_KERNEL_EARLY_START, 3) and their ranges.
  ACL_EXPECT_OK(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
  ACL_EXPECT_OK(aclrtCtxSetSysParamOpt(static_cast<aclSysParamOpt>(2), 3));
  ACL_ASSERT_OK(aclrtCtxGetSysParamOpt(static_cast<aclSysParamOpt>(2), &value));
  EXPECT_EQ(value, 3);
  ACL_EXPECT_ERROR(aclrtCtxSetSysParamOpt(static_cast<aclSysParamOpt>(3), 0), ACL_ERROR_INVALID_PARAM,
                   "aclrtCtxSetSysParamOpt");
  ACL_EXPECT_ERROR(aclrtCtxGetSysParamOpt(static_cast<aclSysParamOpt>(3), &value), ACL_ERROR_INVALID_PARAM,
                   "aclrtCtxGetSysParamOpt");
  ACL_EXPECT_ERROR(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtCtxSetSysParamOpt");
  ACL_EXPECT_ERROR(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, -1), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtCtxSetSysParamOpt");
  ACL_EXPECT_ERROR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtCtxGetSysParamOpt");
  std::thread no_context([] {
    int64_t unused = 0;
    ACL_EXPECT_ERROR(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_ERROR_RT_CONTEXT_NULL,
                     "aclrtCtxSetSysParamOpt");
    ACL_EXPECT_ERROR(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &unused), ACL_ERROR_RT_CONTEXT_NULL,
                     "aclrtCtxGetSysParamOpt");
  });
  no_context.join();

  for (int opt = 0; opt < 3; ++opt) ACL_EXPECT_OK(aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(opt), 0));
  ACL_ASSERT_OK(aclrtSetCurrentContext(primary));
  ACL_EXPECT_OK(aclrtDestroyContext(other));
}

TEST(Device, RecentErrorIsPerThreadAndNeverNull) {
  ACL_EXPECT_ERROR(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice");
  ASSERT_EQ(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);
  std::thread other([] {
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_STREQ(message, "");  // another thread's failure is not ours
  });
  other.join();
  const std::string message = RecentMessage();
  EXPECT_NE(message.find("aclrtSetDevice"), std::string::npos);
  EXPECT_NE(message.find("99"), std::string::npos) << message;
}

}  // namespace
