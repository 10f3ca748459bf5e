// aclmdlRI capture and replay, used as llama.cpp's CANN backend does: capture a
// sequence of ops once, replay it with new data many times.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <future>
#include <random>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "canopy/canopy_runtime.h"

namespace {

constexpr int64_t kElements = 4096;
constexpr size_t kBytes = kElements * sizeof(float);
constexpr float kPoison = -12345.0f;

class Environment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new Environment);

struct DeviceVector {
  void* data = nullptr;
  DeviceVector() { EXPECT_EQ(aclrtMalloc(&data, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS); }
  ~DeviceVector() { aclrtFree(data); }
  void Upload(const std::vector<float>& host) const {
    ASSERT_EQ(aclrtMemcpy(data, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  std::vector<float> Download() const {
    std::vector<float> host(kElements);
    EXPECT_EQ(aclrtMemcpy(host.data(), kBytes, data, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return host;
  }
  aclTensor* Tensor() const {
    const int64_t shape[] = {kElements};
    const int64_t strides[] = {1};
    return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data);
  }
};

std::vector<float> Random(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  std::vector<float> v(kElements);
  for (float& x : v) x = uniform(rng);
  return v;
}

// out = a + b, queued on `stream` (both phases; descriptors dropped at once).
void EnqueueAdd(const DeviceVector& a, const DeviceVector& b, const DeviceVector& out, aclrtStream stream) {
  aclTensor *ta = a.Tensor(), *tb = b.Tensor(), *tout = out.Tensor();
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(ta, tb, alpha, tout, &workspace, &executor), ACL_SUCCESS);
  ASSERT_EQ(workspace, 0u);
  ASSERT_EQ(aclnnAdd(nullptr, 0, executor, stream), ACL_SUCCESS);
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tout);
  aclDestroyScalar(alpha);
}

void EnqueueMul(const DeviceVector& a, const DeviceVector& b, const DeviceVector& out, aclrtStream stream) {
  aclTensor *ta = a.Tensor(), *tb = b.Tensor(), *tout = out.Tensor();
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMulGetWorkspaceSize(ta, tb, tout, &workspace, &executor), ACL_SUCCESS);
  ASSERT_EQ(aclnnMul(nullptr, 0, executor, stream), ACL_SUCCESS);
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tout);
}

class CaptureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (aclrtStream* s : {&stream_, &side_, &target_}) ASSERT_EQ(aclrtCreateStream(s), ACL_SUCCESS);
  }
  void TearDown() override {
    for (aclrtStream s : {stream_, side_, target_}) {
      aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
      aclmdlRICaptureGetInfo(s, &status, nullptr);
      if (status != ACL_MODEL_RI_CAPTURE_STATUS_NONE) {
        aclmdlRI model = nullptr;
        aclmdlRICaptureEnd(s, &model);
        if (model != nullptr) aclmdlRIDestroy(model);
      }
      EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
      EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    }
  }
  aclrtStream stream_ = nullptr, side_ = nullptr, target_ = nullptr;
};

TEST_F(CaptureTest, NothingRunsDuringCaptureAndReplaysSeeNewData) {
  DeviceVector a, b, c, sum, product;
  const std::vector<float> poison(kElements, kPoison);
  product.Upload(poison);
  a.Upload(Random(1));
  b.Upload(Random(2));
  c.Upload(Random(3));

  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, nullptr), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EnqueueAdd(a, b, sum, stream_);        // sum = a + b
  EnqueueMul(sum, c, product, stream_);  // product = (a + b) * c
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(product.Download(), poison) << "captured work must not run during capture";
  EXPECT_EQ(aclmdlRIDebugPrint(model), ACL_SUCCESS);

  for (uint32_t round = 0; round < 20; ++round) {
    const auto ha = Random(10 + round), hb = Random(100 + round), hc = Random(1000 + round);
    a.Upload(ha);
    b.Upload(hb);
    c.Upload(hc);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, target_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
    const auto got = product.Download();
    for (int64_t i = 0; i < kElements; ++i) {
      const double expected = (static_cast<double>(ha[i]) + hb[i]) * hc[i];
      ASSERT_NEAR(got[i], expected, 1e-5 * (1 + std::abs(expected))) << "round " << round << " element " << i;
    }
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_INVALID_PARAM) << "a destroyed model is no longer live";
}

TEST_F(CaptureTest, BackToBackReplaysAccumulateInStreamOrder) {
  DeviceVector x, one;
  x.Upload(std::vector<float>(kElements, 0.0f));
  one.Upload(std::vector<float>(kElements, 1.0f));
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
  EnqueueAdd(x, one, x, stream_);  // x += 1, in place
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  constexpr int kReplays = 50;
  for (int i = 0; i < kReplays; ++i) ASSERT_EQ(aclmdlRIExecuteAsync(model, target_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
  EXPECT_EQ(x.Download(), std::vector<float>(kElements, static_cast<float>(kReplays)));
  ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);  // the synchronous form
  EXPECT_EQ(x.Download(), std::vector<float>(kElements, static_cast<float>(kReplays + 1)));
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CaptureTest, CrossStreamForkAndJoinThroughEvents) {
  DeviceVector a, b, c, left, right, result;
  aclrtEvent fork = nullptr, join = nullptr, done = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&fork), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&join), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);

  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EnqueueAdd(a, b, left, stream_);  // left = a + b      (capturing stream)
  ASSERT_EQ(aclrtRecordEvent(fork, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(side_, fork), ACL_SUCCESS);  // side_ joins the capture
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ASSERT_EQ(aclmdlRICaptureGetInfo(side_, &status, nullptr), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EnqueueMul(left, c, right, side_);  // right = left * c  (forked stream)
  ASSERT_EQ(aclrtRecordEvent(join, side_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(stream_, join), ACL_SUCCESS);
  EnqueueAdd(right, left, result, stream_);  // result = right + left
  ASSERT_EQ(aclrtRecordEvent(done, stream_), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  aclmdlRI wrong = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(side_, &wrong), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureGetInfo(side_, &status, nullptr), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE) << "the joined stream leaves the capture with it";

  for (uint32_t round = 0; round < 5; ++round) {
    const auto ha = Random(7 * round + 1), hb = Random(7 * round + 2), hc = Random(7 * round + 3);
    a.Upload(ha);
    b.Upload(hb);
    c.Upload(hc);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, target_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(done), ACL_SUCCESS) << "events recorded in the model are recorded by replay";
    ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
    const auto got = result.Download();
    for (int64_t i = 0; i < kElements; ++i) {
      const double l = static_cast<double>(ha[i]) + hb[i];
      const double expected = l * hc[i] + l;
      ASSERT_NEAR(got[i], expected, 1e-4 * (1 + std::abs(expected))) << "round " << round;
    }
  }
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  for (aclrtEvent e : {fork, join, done}) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
}

TEST_F(CaptureTest, ForkedStreamThatNeverJoinsBackFailsTheCapture) {
  DeviceVector a, b, out;
  aclrtEvent fork = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&fork), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(fork, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(side_, fork), ACL_SUCCESS);
  EnqueueAdd(a, b, out, side_);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_UNJOINED);
  EXPECT_NE(std::string(aclGetRecentErrMsg()), "");
  EXPECT_EQ(aclrtDestroyEvent(fork), ACL_SUCCESS);
}

TEST_F(CaptureTest, SynchronizingTheCapturedStreamIsIllegalAndInvalidates) {
  DeviceVector a, b, out;
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
  EnqueueAdd(a, b, out, stream_);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_STREAM_CAPTURED);
  aclrtStreamStatus stream_status;
  EXPECT_EQ(aclrtStreamQuery(stream_, &stream_status), ACL_ERROR_RT_STREAM_CAPTURED);
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, nullptr), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "the stream is usable again";
}

TEST_F(CaptureTest, UnsafeCallsFollowTheCaptureModes) {
  DeviceVector d;
  std::vector<float> host(kElements, 1.0f);
  auto copy_from_other_thread = [&] {
    return std::async(std::launch::async,
                      [&] { return aclrtMemcpy(d.data, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE); })
        .get();
  };
  // Relaxed: nobody is restricted.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d.data, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);

  // Thread-local: only the capturing thread is restricted.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
  EXPECT_EQ(copy_from_other_thread(), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(d.data, kBytes, 0, kBytes), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

  // Global: every thread is restricted, unless it exchanges its own mode for relaxed.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  const aclError relaxed_thread = std::async(std::launch::async, [&] {
                                    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
                                    EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
                                    EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
                                    return aclrtMemcpy(d.data, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE);
                                  }).get();
  EXPECT_EQ(relaxed_thread, ACL_SUCCESS);
  EXPECT_EQ(copy_from_other_thread(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
}

// CANN counts queued copies with pageable (not page-locked) host memory among
// the unsafe functions a capture mode restricts, as aclrtMemcpy: under a GLOBAL
// capture one on another stream fails with ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
// and invalidates the capture; with pinned memory it is an ordinary queued copy.
TEST_F(CaptureTest, PageableQueuedCopiesAreUnsafeDuringAGlobalCapture) {
  DeviceVector d;
  std::vector<float> pageable(kElements, 1.0f);
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, kBytes), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(d.data, kBytes, pinned, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, target_), ACL_SUCCESS);
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, nullptr), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_EQ(aclrtMemcpyAsync(d.data, kBytes, pageable.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, target_),
            ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(aclrtMemcpy2dAsync(pageable.data(), kBytes, d.data, kBytes, kBytes, 1, ACL_MEMCPY_DEVICE_TO_HOST, target_),
            ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, nullptr), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  // With the capture over, the same copy is fine again.
  EXPECT_EQ(aclrtMemcpyAsync(d.data, kBytes, pageable.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, target_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(CaptureTest, HostFunctionsAndEventsAreReplayed) {
  static std::atomic<int> calls{0};
  calls = 0;
  aclrtEvent start = nullptr, end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(start, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchHostFunc(
                stream_, [](void*) { ++calls; }, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(end, stream_), ACL_SUCCESS);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_CAPTURED);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
      << "querying a captured event invalidates the capture";

  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(start, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchHostFunc(
                stream_, [](void*) { ++calls; }, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(end, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  EXPECT_EQ(calls.load(), 0);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(aclmdlRIExecuteAsync(model, target_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
  EXPECT_EQ(calls.load(), 3);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(CaptureTest, DestroyingAModelWithAQueuedReplayIsRefusedThenSucceeds) {
  DeviceVector x, one;
  x.Upload(std::vector<float>(kElements, 0.0f));
  one.Upload(std::vector<float>(kElements, 1.0f));
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EnqueueAdd(x, one, x, stream_);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);

  std::promise<void> gate;
  std::shared_future<void> opened = gate.get_future().share();
  ASSERT_EQ(aclrtLaunchHostFunc(
                target_, [](void* f) { static_cast<std::shared_future<void>*>(f)->wait(); }, &opened),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, target_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_RT_MODEL_RUNNING);
  gate.set_value();
  ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
  EXPECT_EQ(x.Download(), std::vector<float>(kElements, 1.0f));
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CaptureTest, ArgumentErrors) {
  EXPECT_EQ(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRICaptureBegin(stream_, static_cast<aclmdlRICaptureMode>(7)), ACL_ERROR_RT_PARAM_INVALID);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRICaptureGetInfo(stream_, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIExecuteAsync(nullptr, target_), ACL_ERROR_INVALID_PARAM);
  int dummy = 0;
  EXPECT_EQ(aclmdlRIExecuteAsync(&dummy, target_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIDestroy(&dummy), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIExecute(&dummy, 0), ACL_ERROR_RT_PARAM_INVALID);
}

// A destroyed model's handle stays dead: it never names a model captured later,
// so destroying it twice cannot destroy that one.
TEST_F(CaptureTest, ADestroyedModelHandleNeverNamesALaterModel) {
  DeviceVector x, one;
  x.Upload(std::vector<float>(kElements, 0.0f));
  one.Upload(std::vector<float>(kElements, 1.0f));
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EnqueueAdd(x, one, x, stream_);
  aclmdlRI first = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &first), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(first), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EnqueueAdd(x, one, x, stream_);
  aclmdlRI second = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &second), ACL_SUCCESS);
  EXPECT_NE(second, first);
  EXPECT_EQ(aclmdlRIDestroy(first), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIExecuteAsync(first, target_), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIExecuteAsync(second, target_), ACL_SUCCESS);  // still alive
  ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
  EXPECT_EQ(x.Download(), std::vector<float>(kElements, 1.0f));
  EXPECT_EQ(aclmdlRIDestroy(second), ACL_SUCCESS);
}

// aclmdlRIDestroy racing replays on another thread: each replay is either
// refused (the model is gone) or runs whole, never on a destroyed model.
TEST_F(CaptureTest, DestroyRacingReplaysNeverFreesAModelInUse) {
  DeviceVector x, one;
  x.Upload(std::vector<float>(kElements, 0.0f));
  one.Upload(std::vector<float>(kElements, 1.0f));
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EnqueueAdd(x, one, x, stream_);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  constexpr int kReplays = 200;  // bounded, so the queued ones drain and the destroy gets through
  std::atomic<int> accepted{0};
  std::thread replayer([&] {
    for (int i = 0; i < kReplays; ++i) {
      if (aclmdlRIExecuteAsync(model, target_) == ACL_SUCCESS) accepted.fetch_add(1);
    }
  });
  aclError status = ACL_ERROR_RT_MODEL_RUNNING;
  while (status == ACL_ERROR_RT_MODEL_RUNNING) {
    status = aclmdlRIDestroy(model);
    std::this_thread::yield();
  }
  replayer.join();
  EXPECT_EQ(status, ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
  EXPECT_EQ(x.Download(), std::vector<float>(kElements, static_cast<float>(accepted.load())));
}

// A capture left open when its context is destroyed ends with it: nothing
// captures afterwards (a later stream at the same address included), and the
// GLOBAL capture no longer forbids synchronous copies.
TEST_F(CaptureTest, DestroyingAContextEndsTheCapturesOfItsStreams) {
  aclrtContext original = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&original), ACL_SUCCESS);
  aclrtContext doomed = nullptr;
  ASSERT_EQ(aclrtCreateContext(&doomed, 0), ACL_SUCCESS);
  aclrtStream capturing = nullptr;
  ASSERT_EQ(aclrtCreateStream(&capturing), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(doomed), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(original), ACL_SUCCESS);
  DeviceVector a, b, out;
  const std::vector<float> ha = Random(21), hb = Random(22);
  a.Upload(ha);  // a synchronous copy: refused while a GLOBAL capture is active
  b.Upload(hb);
  std::vector<double> want(kElements);
  for (int64_t i = 0; i < kElements; ++i) want[i] = static_cast<double>(ha[i]) + hb[i];
  for (int round = 0; round < 8; ++round) {  // new streams, some likely at the old address
    out.Upload(std::vector<float>(kElements, kPoison));
    aclrtStream fresh = nullptr;
    ASSERT_EQ(aclrtCreateStream(&fresh), ACL_SUCCESS);
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    ASSERT_EQ(aclmdlRICaptureGetInfo(fresh, &status, nullptr), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    EnqueueAdd(a, b, out, fresh);
    ASSERT_EQ(aclrtSynchronizeStream(fresh), ACL_SUCCESS);
    const std::vector<float> got = out.Download();
    for (int64_t i = 0; i < kElements; ++i) ASSERT_NEAR(got[i], want[i], 1e-5) << i;
    ASSERT_EQ(aclrtDestroyStream(fresh), ACL_SUCCESS);
  }
}

// canopyFreeAsync on a capturing stream: the block still belongs to the captured
// work, so no other stream gets it before the model is gone.
TEST_F(CaptureTest, ABlockFreedDuringCaptureIsNotReusedByAnotherStreamWhileTheModelLives) {
  DeviceVector a, one;
  a.Upload(Random(31));
  one.Upload(std::vector<float>(kElements, 1.0f));
  void* block = nullptr;
  ASSERT_EQ(canopyMallocAsync(&block, kBytes, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  DeviceVector scratch_view;  // the captured add writes the block
  void* own = scratch_view.data;
  scratch_view.data = block;
  EnqueueAdd(a, one, scratch_view, stream_);
  scratch_view.data = own;
  ASSERT_EQ(canopyFreeAsync(block, stream_), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // whatever it enqueued has run
  void* other = nullptr;
  ASSERT_EQ(canopyMallocAsync(&other, kBytes, target_), ACL_SUCCESS);
  EXPECT_NE(other, block);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, side_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(side_), ACL_SUCCESS);
  ASSERT_EQ(canopyFreeAsync(other, target_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(target_), ACL_SUCCESS);
}

}  // namespace
