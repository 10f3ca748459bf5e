// Each test is a small client program with one seeded bug of the kind an NPU
// would silently mis-execute; checker mode must report it (status, message,
// stderr), and the correct version of the same program must pass unreported.
#include <gtest/gtest.h>

#include <cstdlib>
#include <future>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_nonzero.h"
#include "canopy/canopy_runtime.h"

namespace {

constexpr int64_t kElements = 1024;
constexpr size_t kBytes = kElements * sizeof(float);

class Environment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new Environment);

aclTensor* Vector(void* data, int64_t elements = kElements, aclDataType dtype = ACL_FLOAT) {
  const int64_t shape[] = {elements};
  return aclCreateTensor(shape, 1, dtype, nullptr, 0, ACL_FORMAT_ND, shape, 1, data);
}

// out = a + b on `stream`; returns phase 2's status (phase 1 must succeed).
aclnnStatus Add(void* a, void* b, void* out, aclrtStream stream, int64_t elements = kElements) {
  aclTensor *ta = Vector(a, elements), *tb = Vector(b, elements), *tout = Vector(out, elements);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(ta, tb, alpha, tout, &workspace, &executor), ACL_SUCCESS);
  const aclnnStatus status = aclnnAdd(nullptr, 0, executor, stream);
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tout);
  aclDestroyScalar(alpha);
  return status;
}

class CheckerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    canopySetCheckMode(1);
    ASSERT_EQ(aclrtCreateStream(&first_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&second_), ACL_SUCCESS);
    for (void** buffer : {&a_, &b_, &c_}) {
      ASSERT_EQ(aclrtMalloc(buffer, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemset(*buffer, kBytes, 0, kBytes), ACL_SUCCESS);
    }
  }
  void TearDown() override {
    for (aclrtStream s : {first_, second_}) {
      EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
      EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    }
    for (void* buffer : {a_, b_, c_}) {
      if (buffer != nullptr) {
        EXPECT_EQ(aclrtFree(buffer), ACL_SUCCESS);
      }
    }
    canopySetCheckMode(0);
  }
  // aclGetRecentErrMsg hands the message over once, so every fragment is checked on one read.
  static void ExpectReport(std::initializer_list<const char*> fragments) {
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("canopy checker"), std::string::npos) << message;
    for (const char* fragment : fragments) EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
  aclrtStream first_ = nullptr, second_ = nullptr;
  void *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
};

TEST_F(CheckerTest, CleanProgramIsNotReported) {
  EXPECT_EQ(Add(a_, b_, c_, first_), ACLNN_SUCCESS);
  aclrtEvent done = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(done, first_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(second_, done), ACL_SUCCESS);
  EXPECT_EQ(Add(c_, b_, a_, second_), ACLNN_SUCCESS) << aclGetRecentErrMsg();  // ordered by the event
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  EXPECT_EQ(Add(a_, a_, b_, first_), ACLNN_SUCCESS) << aclGetRecentErrMsg();  // ordered by the host's wait
  EXPECT_EQ(aclrtDestroyEvent(done), ACL_SUCCESS);
}

TEST_F(CheckerTest, ViewPastTheEndOfItsAllocation) {
  // Past the allocation's padding (CANN rounds aclrtMalloc sizes up to 32 bytes and adds 32).
  EXPECT_EQ(Add(a_, b_, c_, first_, kElements + 9), ACLNN_ERR_PARAM_INVALID);
  ExpectReport({"runs past the end of its device allocation", "aclnnAdd"});
}

TEST_F(CheckerTest, HostPointerWhereDeviceMemoryIsRequired) {
  std::vector<float> host(kElements, 1.0f);
  EXPECT_EQ(Add(host.data(), b_, c_, first_), ACLNN_ERR_PARAM_INVALID);
  ExpectReport({"argument 'self'", "is not device memory"});
}

TEST_F(CheckerTest, PinnedHostMemoryAsATensor) {
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, kBytes), ACL_SUCCESS);
  EXPECT_EQ(Add(a_, b_, pinned, first_), ACLNN_ERR_PARAM_INVALID);
  ExpectReport({"argument 'out'", "pinned host memory"});
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(CheckerTest, WorkspaceSmallerThanPhaseOneAskedFor) {
  // Cast into a dtype other than out's needs a staging workspace.
  aclTensor* in = Vector(a_);
  aclTensor* out = Vector(c_, kElements, ACL_INT32);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnCastGetWorkspaceSize(in, ACL_FLOAT16, out, &size, &executor), ACL_SUCCESS);
  ASSERT_GT(size, 0u);
  void* workspace = nullptr;
  ASSERT_EQ(aclrtMalloc(&workspace, size / 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclnnCast(workspace, size, executor, first_), ACLNN_ERR_PARAM_INVALID);  // claims `size` bytes
  ExpectReport({"argument 'workspace'"});
  aclDestroyTensor(in);
  aclDestroyTensor(out);
  EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
}

TEST_F(CheckerTest, MemoryFreedWhileQueuedWorkStillUsesIt) {
  std::promise<void> gate;
  std::shared_future<void> opened = gate.get_future().share();
  ASSERT_EQ(aclrtLaunchHostFunc(
                first_, [](void* f) { static_cast<std::shared_future<void>*>(f)->wait(); }, &opened),
            ACL_SUCCESS);
  EXPECT_EQ(Add(a_, b_, c_, first_), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtFree(b_), ACL_ERROR_INVALID_PARAM);
  ExpectReport({"use after free", "argument 'other'"});
  gate.set_value();
  ASSERT_EQ(aclrtSynchronizeStream(first_), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(b_), ACL_SUCCESS) << "once the stream has passed, the free is fine";
  b_ = nullptr;
}

TEST_F(CheckerTest, UnorderedWriteAndReadOnTwoStreamsIsARace) {
  EXPECT_EQ(Add(a_, b_, c_, first_), ACLNN_SUCCESS);             // writes c
  EXPECT_EQ(Add(c_, b_, a_, second_), ACLNN_ERR_PARAM_INVALID);  // reads c, no event between
  ExpectReport({"race", "argument 'out'"});
}

TEST_F(CheckerTest, UnorderedQueuedCopyIntoATensorIsARace) {
  EXPECT_EQ(Add(a_, b_, c_, first_), ACLNN_SUCCESS);  // reads a
  EXPECT_EQ(aclrtMemcpyAsync(a_, kBytes, b_, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, second_),
            ACL_ERROR_INVALID_PARAM);  // overwrites a meanwhile
  ExpectReport({"race: aclrtMemcpyAsync writes argument 'dst'"});
}

TEST_F(CheckerTest, ReadsOnTwoStreamsDoNotRace) {
  EXPECT_EQ(Add(a_, b_, c_, first_), ACLNN_SUCCESS);
  void* scratch = nullptr;
  ASSERT_EQ(aclrtMalloc(&scratch, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(Add(a_, b_, scratch, second_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(scratch), ACL_SUCCESS);
}

// A capture on one stream does not switch the checker off for the others.
TEST_F(CheckerTest, OpsOnOtherStreamsAreCheckedWhileAStreamCaptures) {
  ASSERT_EQ(aclmdlRICaptureBegin(first_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  std::vector<float> host(kElements, 1.0f);
  EXPECT_EQ(Add(host.data(), b_, c_, second_), ACLNN_ERR_PARAM_INVALID);
  ExpectReport({"argument 'self'", "is not device memory"});
  EXPECT_EQ(Add(a_, b_, c_, first_), ACLNN_SUCCESS) << aclGetRecentErrMsg();  // captured, checked at replay
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(first_, &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// A replay whose captured op reads memory freed since the capture is reported and
// refused, not run (before the fix it read unmapped memory: SIGSEGV).
TEST_F(CheckerTest, ReplayAfterFreeingAnInputIsReportedAndRefused) {
  void* input = nullptr;
  constexpr size_t kMapped = 1 << 20;  // mmap-backed: reading it after the free would fault
  ASSERT_EQ(aclrtMalloc(&input, kMapped, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(input, kMapped, 0, kMapped), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(first_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(Add(input, b_, c_, first_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(first_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, second_), ACL_SUCCESS) << aclGetRecentErrMsg();  // fine while live
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(input), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, second_), ACL_ERROR_INVALID_PARAM);
  ExpectReport({"aclmdlRIExecuteAsync", "argument 'self'", "is not device memory"});
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// A captured copy keeps its pinned host side as well as its device side: a
// replay after aclrtFreeHost is reported and refused (it read freed memory).
TEST_F(CheckerTest, ReplayOfACopyAfterFreeingItsPinnedHostSideIsRefused) {
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, kBytes), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(first_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(a_, kBytes, pinned, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, first_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(pinned, kBytes, c_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, first_), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(first_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, second_), ACL_SUCCESS) << aclGetRecentErrMsg();  // fine while live
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, second_), ACL_ERROR_INVALID_PARAM);
  ExpectReport({"aclmdlRIExecuteAsync", "argument 'src'", "is not device memory"});
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// Nonzero cannot be captured (its out's shape is written after the run); the
// refused launch must leave nothing behind for the next captured task, which
// once inherited its accesses and refused every replay after out was freed.
TEST_F(CheckerTest, ARefusedLaunchLeavesNoAccessesForTheNextCapturedTask) {
  void* out = nullptr;
  const size_t out_bytes = kElements * sizeof(int64_t);
  ASSERT_EQ(aclrtMalloc(&out, out_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclTensor* self = Vector(a_);
  const int64_t out_shape[] = {kElements, 1};
  aclTensor* indices = aclCreateTensor(out_shape, 2, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, out_shape, 2, out);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnNonzeroGetWorkspaceSize(self, indices, &workspace, &executor), ACLNN_SUCCESS);
  void* workspace_memory = nullptr;
  if (workspace > 0) {
    ASSERT_EQ(aclrtMalloc(&workspace_memory, workspace, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ASSERT_EQ(aclmdlRICaptureBegin(first_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(aclnnNonzero(workspace_memory, workspace, executor, first_), ACLNN_ERR_RUNTIME_ERROR);
  ASSERT_EQ(aclrtLaunchHostFunc(
                first_, [](void*) {}, nullptr),
            ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(first_, &model), ACL_SUCCESS);
  aclDestroyTensor(indices);
  aclDestroyTensor(self);
  ASSERT_EQ(aclrtFree(out), ACL_SUCCESS);
  if (workspace_memory != nullptr) {
    ASSERT_EQ(aclrtFree(workspace_memory), ACL_SUCCESS);
  }
  EXPECT_EQ(aclmdlRIExecuteAsync(model, second_), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// Seeing a stream or an event complete by polling orders the work before what
// the host enqueues next, as a synchronize does (a caching allocator's
// pattern): the next op on another stream is not a race.
TEST_F(CheckerTest, CompletionSeenByAQueryOrdersLaterWork) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  for (int query = 0; query < 3; ++query) {
    SCOPED_TRACE(query);
    ASSERT_EQ(Add(a_, b_, c_, first_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
    for (bool complete = false; !complete;) {
      if (query == 0) {
        aclrtStreamStatus status;
        ASSERT_EQ(aclrtStreamQuery(first_, &status), ACL_SUCCESS);
        complete = status == ACL_STREAM_STATUS_COMPLETE;
      } else if (query == 1) {
        aclrtEventRecordedStatus status;
        ASSERT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
        complete = status == ACL_EVENT_RECORDED_STATUS_COMPLETE;
      } else {
        aclrtEventStatus status;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the older query, still CANN's API
        ASSERT_EQ(aclrtQueryEvent(event, &status), ACL_SUCCESS);
#pragma GCC diagnostic pop
        complete = status == ACL_EVENT_STATUS_COMPLETE;
      }
    }
    EXPECT_EQ(Add(c_, b_, a_, second_), ACLNN_SUCCESS) << aclGetRecentErrMsg();  // reads c, writes a
    ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST(CheckerAbort, AbortModeStopsAtTheFirstReport) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the runtime has threads of its own
  EXPECT_DEATH(
      {
        canopySetCheckMode(2);
        std::vector<float> host(kElements);
        void* device = nullptr;
        aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST);
        Add(host.data(), device, device, nullptr);
      },
      "canopy checker");
}

}  // namespace
