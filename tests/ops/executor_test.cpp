// The execution model as clients rely on it: repeatable executors rerun with
// new data and rebound addresses (aclSet*TensorAddr index rules and codes),
// phase 2 only enqueues, a null workspace with a non-zero size is rejected,
// and the seed's pipeline (Matmul, then Add, descriptors destroyed and
// workspaces freed in stream order, one synchronisation) is correct.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_nonzero.h"
#include "canopy/canopy_executor.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

constexpr auto kGateTimeout = std::chrono::seconds(20);
constexpr uint64_t kBogusWorkspaceSize = 1024;

// A host function that holds its stream until Open() (or a timeout), so that
// the test can look at device memory while work is queued behind it.
class StreamGate {
 public:
  void Enqueue(aclrtStream stream) { ASSERT_EQ(aclrtLaunchHostFunc(stream, &StreamGate::Wait, this), ACL_SUCCESS); }
  void Open() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_ = true;
    }
    cv_.notify_all();
  }
  ~StreamGate() { Open(); }

 private:
  static void Wait(void* self) {
    auto* gate = static_cast<StreamGate*>(self);
    std::unique_lock<std::mutex> lock(gate->mutex_);
    gate->cv_.wait_for(lock, kGateTimeout, [gate] { return gate->open_; });
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false;
};

void* WorkspaceOrNull(const DeviceBuffer& buffer, uint64_t size) { return size > 0 ? buffer.get() : nullptr; }

const Shape kShape = {4, 5};
constexpr double kAlpha = 0.5;

Expected AddReference(const Values& self, const Values& other) {
  return ReferenceBinary(BinaryOp::kAdd, self, kShape, other, kShape, kAlpha, ACL_FLOAT, ACL_FLOAT);
}

// An Add client that keeps its descriptors for executor reuse.
class RepeatableAdd : public ::testing::Test {
 protected:
  void SetUp() override {
    self_ = args_.Tensor(selfA_);
    other_ = args_.Tensor(otherA_);
    out_ = args_.Tensor(outA_);
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(self_, other_, args_.Scalar(ACL_FLOAT, kAlpha), out_, &workspaceSize_, &executor_),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    workspace_ = std::make_unique<DeviceBuffer>(workspaceSize_);
  }
  void TearDown() override {
    if (executor_ != nullptr) {
      EXPECT_EQ(aclDestroyAclOpExecutor(executor_), ACLNN_SUCCESS);
    }
  }

  // Fresh inputs in (self, other), poisoned out, one run, check.
  void RunAndCheck(DeviceTensor& self, DeviceTensor& other, DeviceTensor& out, const std::string& what) {
    const Values s = self.FillRandom(rng_, Range{});
    const Values o = other.FillRandom(rng_, Range{});
    out.Poison();
    ASSERT_EQ(aclnnAdd(WorkspaceOrNull(*workspace_, workspaceSize_), workspaceSize_, executor_, TestStream()),
              ACLNN_SUCCESS)
        << what << ": " << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << what << ": " << aclGetRecentErrMsg();
    ExpectNear(out.ReadView(), AddReference(s, o), what);
  }

  Rng rng_ = Rng::ForCurrentTest();
  DeviceTensor selfA_{ACL_FLOAT, kShape}, otherA_{ACL_FLOAT, kShape}, outA_{ACL_FLOAT, kShape};
  DeviceTensor selfB_{ACL_FLOAT, kShape}, otherB_{ACL_FLOAT, kShape}, outB_{ACL_FLOAT, kShape};
  OpArgs args_;
  aclTensor* self_ = nullptr;
  aclTensor* other_ = nullptr;
  aclTensor* out_ = nullptr;
  uint64_t workspaceSize_ = 0;
  aclOpExecutor* executor_ = nullptr;
  std::unique_ptr<DeviceBuffer> workspace_;
};

TEST_F(RepeatableAdd, RerunsWithNewDataAtTheSameAddresses) {
  for (int run = 0; run < 3; ++run) RunAndCheck(selfA_, otherA_, outA_, "run " + std::to_string(run));
}

TEST_F(RepeatableAdd, FollowsInputAndOutputAddressesRebound) {
  RunAndCheck(selfA_, otherA_, outA_, "before rebinding");
  EXPECT_EQ(aclSetInputTensorAddr(executor_, 0, self_, selfB_.data()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclSetInputTensorAddr(executor_, 1, other_, otherB_.data()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclSetOutputTensorAddr(executor_, 0, out_, outB_.data()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  void* raw = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(self_, &raw), ACLNN_SUCCESS);
  EXPECT_EQ(raw, selfB_.data()) << "aclSetInputTensorAddr updates the tensor's own address too";
  outA_.Poison();
  const std::vector<uint8_t> oldOut = outA_.DownloadBytes();
  RunAndCheck(selfB_, otherB_, outB_, "after aclSetInput/OutputTensorAddr");
  EXPECT_EQ(outA_.DownloadBytes(), oldOut) << "the old output address must not be written any more";
}

TEST_F(RepeatableAdd, FollowsAddressesReboundByCombinedIndex) {
  // aclSetTensorAddr counts inputs first, then outputs: self 0, other 1, out 2.
  EXPECT_EQ(aclSetTensorAddr(executor_, 0, self_, selfB_.data()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclSetTensorAddr(executor_, 1, other_, otherB_.data()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclSetTensorAddr(executor_, 2, out_, outB_.data()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  RunAndCheck(selfB_, otherB_, outB_, "after aclSetTensorAddr to B");
  EXPECT_EQ(aclSetTensorAddr(executor_, 0, self_, selfA_.data()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetTensorAddr(executor_, 1, other_, otherA_.data()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetTensorAddr(executor_, 2, out_, outA_.data()), ACLNN_SUCCESS);
  RunAndCheck(selfA_, otherA_, outA_, "after aclSetTensorAddr back to A");
}

TEST_F(RepeatableAdd, ReservedAliasesBehaveTheSame) {
  EXPECT_EQ(AclSetInputTensorAddr(executor_, 0, self_, selfB_.data()), ACLNN_SUCCESS);
  EXPECT_EQ(AclSetInputTensorAddr(executor_, 1, other_, otherB_.data()), ACLNN_SUCCESS);
  EXPECT_EQ(AclSetOutputTensorAddr(executor_, 0, out_, outB_.data()), ACLNN_SUCCESS);
  RunAndCheck(selfB_, otherB_, outB_, "after AclSet*TensorAddr");
  EXPECT_EQ(AclSetTensorAddr(executor_, 2, out_, outA_.data()), ACLNN_SUCCESS);
  RunAndCheck(selfB_, otherB_, outA_, "after AclSetTensorAddr");
  EXPECT_EQ(AclSetTensorAddr(executor_, 3, out_, outA_.data()), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(RepeatableAdd, RejectsIndicesOutOfRange) {
  EXPECT_EQ(aclSetInputTensorAddr(executor_, 2, self_, selfB_.data()), ACLNN_ERR_PARAM_INVALID)
      << "Add has two input tensors (alpha is a scalar)";
  EXPECT_EQ(aclSetOutputTensorAddr(executor_, 1, out_, outB_.data()), ACLNN_ERR_PARAM_INVALID)
      << "Add has one output tensor";
  EXPECT_EQ(aclSetTensorAddr(executor_, 3, out_, outB_.data()), ACLNN_ERR_PARAM_INVALID) << "Add has three tensors";
  EXPECT_EQ(aclSetInputTensorAddr(executor_, 1000, self_, selfB_.data()), ACLNN_ERR_PARAM_INVALID);
  // The executor is still usable with its original addresses.
  RunAndCheck(selfA_, otherA_, outA_, "after rejected rebinds");
}

TEST_F(RepeatableAdd, RejectsNullTensorWith561103) {
  EXPECT_EQ(aclSetInputTensorAddr(executor_, 0, nullptr, selfB_.data()), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetOutputTensorAddr(executor_, 0, nullptr, outB_.data()), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetTensorAddr(executor_, 0, nullptr, selfB_.data()), ACLNN_ERR_INNER_NULLPTR);
}

TEST_F(RepeatableAdd, SurvivesARejectedPhase2) {
  EXPECT_EQ(aclnnAdd(nullptr, kBogusWorkspaceSize, executor_, TestStream()), ACLNN_ERR_PARAM_NULLPTR);
  RunAndCheck(selfA_, otherA_, outA_, "after a rejected phase 2");
}

// Rebinding after a run was enqueued must not redirect that run.
TEST_F(RepeatableAdd, QueuedRunsKeepTheAddressesTheyWereLaunchedWith) {
  const Values sA = selfA_.FillRandom(rng_, Range{}), oA = otherA_.FillRandom(rng_, Range{});
  const Values sB = selfB_.FillRandom(rng_, Range{}), oB = otherB_.FillRandom(rng_, Range{});
  outA_.Poison();
  outB_.Poison();
  StreamGate gate;
  gate.Enqueue(TestStream());
  void* workspace = WorkspaceOrNull(*workspace_, workspaceSize_);
  ASSERT_EQ(aclnnAdd(workspace, workspaceSize_, executor_, TestStream()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetTensorAddr(executor_, 0, self_, selfB_.data()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetTensorAddr(executor_, 1, other_, otherB_.data()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetTensorAddr(executor_, 2, out_, outB_.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(workspace, workspaceSize_, executor_, TestStream()), ACLNN_SUCCESS);
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ExpectNear(outA_.ReadView(), AddReference(sA, oA), "first run (launched with A)");
  ExpectNear(outB_.ReadView(), AddReference(sB, oB), "second run (launched with B)");
}

TEST(RepeatableExecutor, MatmulFollowsReboundAddresses) {
  Rng rng = Rng::ForCurrentTest();
  const Shape aShape = {16, 32}, bShape = {32, 8}, outShape = {16, 8};
  DeviceTensor a1(ACL_FLOAT, aShape), b1(ACL_FLOAT, bShape), out1(ACL_FLOAT, outShape);
  DeviceTensor a2(ACL_FLOAT, aShape), b2(ACL_FLOAT, bShape), out2(ACL_FLOAT, outShape);
  OpArgs args;
  aclTensor* self = args.Tensor(a1);
  aclTensor* mat2 = args.Tensor(b1);
  aclTensor* out = args.Tensor(out1);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMatmulGetWorkspaceSize(self, mat2, out, 0, &workspaceSize, &executor), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  DeviceBuffer workspace(workspaceSize);
  auto runAndCheck = [&](DeviceTensor& a, DeviceTensor& b, DeviceTensor& c, const char* what) {
    const Values av = a.FillRandom(rng, Range{-1, 1}), bv = b.FillRandom(rng, Range{-1, 1});
    c.Poison();
    ASSERT_EQ(aclnnMatmul(WorkspaceOrNull(workspace, workspaceSize), workspaceSize, executor, TestStream()),
              ACLNN_SUCCESS)
        << what;
    ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << what << ": " << aclGetRecentErrMsg();
    ExpectNear(c.ReadView(), *ReferenceMatmul(av, aShape, bv, bShape, {ACL_FLOAT, ACL_FLOAT, 0}, nullptr), what);
  };
  runAndCheck(a1, b1, out1, "first run");
  runAndCheck(a1, b1, out1, "second run");
  EXPECT_EQ(aclSetInputTensorAddr(executor, 0, self, a2.data()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetInputTensorAddr(executor, 1, mat2, b2.data()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetOutputTensorAddr(executor, 0, out, out2.data()), ACLNN_SUCCESS);
  runAndCheck(a2, b2, out2, "after rebinding to set 2");
  EXPECT_EQ(aclSetTensorAddr(executor, 2, out, out1.data()), ACLNN_SUCCESS);
  runAndCheck(a2, b2, out1, "after rebinding the output by combined index");
  EXPECT_EQ(aclSetInputTensorAddr(executor, 2, self, a1.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST(RepeatableExecutor, AddsHasOneInputTensor) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self1(ACL_FLOAT, kShape), out1(ACL_FLOAT, kShape), self2(ACL_FLOAT, kShape), out2(ACL_FLOAT, kShape);
  OpArgs args;
  aclTensor* self = args.Tensor(self1);
  aclTensor* out = args.Tensor(out1);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAddsGetWorkspaceSize(self, args.Scalar(ACL_FLOAT, 2.0), args.Scalar(ACL_FLOAT, kAlpha), out,
                                      &workspaceSize, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetInputTensorAddr(executor, 1, self, self2.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetTensorAddr(executor, 2, out, out2.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetTensorAddr(executor, 0, self, self2.data()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetTensorAddr(executor, 1, out, out2.data()), ACLNN_SUCCESS);
  DeviceBuffer workspace(workspaceSize);
  const Values s = self2.FillRandom(rng, Range{});
  out2.Poison();
  ASSERT_EQ(aclnnAdds(WorkspaceOrNull(workspace, workspaceSize), workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  ExpectNear(out2.ReadView(), ReferenceBinary(BinaryOp::kAdd, s, kShape, {2.0}, {}, kAlpha, ACL_FLOAT, ACL_FLOAT),
             "Adds");
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST(RepeatableExecutor, NullExecutorIs561103) {
  DeviceTensor t(ACL_FLOAT, kShape);
  OpArgs args;
  aclTensor* tensor = args.Tensor(t);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetInputTensorAddr(nullptr, 0, tensor, t.data()), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetOutputTensorAddr(nullptr, 0, tensor, t.data()), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetTensorAddr(nullptr, 0, tensor, t.data()), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(AclSetInputTensorAddr(nullptr, 0, tensor, t.data()), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(AclSetOutputTensorAddr(nullptr, 0, tensor, t.data()), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(AclSetTensorAddr(nullptr, 0, tensor, t.data()), ACLNN_ERR_INNER_NULLPTR);
}

// ---- Misuse of executor handles: an error code and a message, never a crash ----------------------

// Reading the message takes it: call once per failure.
::testing::AssertionResult RecentMessageContains(const char* text) {
  const std::string message = aclGetRecentErrMsg();
  if (message.find(text) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the recent error message is \"" << message << "\"";
}

// A non-repeatable Add over A tensors, ready for its phase 2.
struct SingleAdd {
  explicit SingleAdd(Rng& rng) {
    selfValues = self.FillRandom(rng, Range{});
    otherValues = other.FillRandom(rng, Range{});
    out.Poison();
    EXPECT_EQ(aclnnAddGetWorkspaceSize(args.Tensor(self), args.Tensor(other), args.Scalar(ACL_FLOAT, kAlpha),
                                       args.Tensor(out), &workspaceSize, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    workspace = std::make_unique<DeviceBuffer>(workspaceSize);
  }
  aclnnStatus Launch(aclOpExecutor* which) {
    return aclnnAdd(WorkspaceOrNull(*workspace, workspaceSize), workspaceSize, which, TestStream());
  }
  DeviceTensor self{ACL_FLOAT, kShape}, other{ACL_FLOAT, kShape}, out{ACL_FLOAT, kShape};
  Values selfValues, otherValues;
  OpArgs args;
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  std::unique_ptr<DeviceBuffer> workspace;
};

TEST(ExecutorMisuse, NonRepeatableLaunchedTwiceIs161002) {
  Rng rng = Rng::ForCurrentTest();
  SingleAdd add(rng);
  ASSERT_EQ(add.Launch(add.executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  EXPECT_EQ(add.Launch(add.executor), ACLNN_ERR_PARAM_INVALID) << "phase 2 freed the executor";
  EXPECT_TRUE(RecentMessageContains("aclnnAdd: argument 'executor' is no longer live"));
  // Also while the first launch may still be queued.
  SingleAdd queued(rng);
  ASSERT_EQ(queued.Launch(queued.executor), ACLNN_SUCCESS);
  EXPECT_EQ(queued.Launch(queued.executor), ACLNN_ERR_PARAM_INVALID);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ExpectNear(add.out.ReadView(), AddReference(add.selfValues, add.otherValues), "first executor");
  ExpectNear(queued.out.ReadView(), AddReference(queued.selfValues, queued.otherValues), "second executor");
}

// The next phase 1 may get the memory of the executor the last phase 2 freed:
// the stale handle must not launch the new executor.
TEST(ExecutorMisuse, StaleHandleDoesNotReachTheNextExecutor) {
  Rng rng = Rng::ForCurrentTest();
  SingleAdd first(rng);
  ASSERT_EQ(first.Launch(first.executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  for (int round = 0; round < 8; ++round) {
    SingleAdd next(rng);
    const std::vector<uint8_t> poisoned = next.out.DownloadBytes();
    EXPECT_NE(next.executor, first.executor) << "a handle is never given out twice";
    EXPECT_EQ(first.Launch(first.executor), ACLNN_ERR_PARAM_INVALID) << "round " << round;
    ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
    EXPECT_EQ(next.out.DownloadBytes(), poisoned) << "the stale handle ran the new executor";
    ASSERT_EQ(next.Launch(next.executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
    ExpectNear(next.out.ReadView(), AddReference(next.selfValues, next.otherValues), "round " + std::to_string(round));
  }
}

TEST(ExecutorMisuse, RepeatableLaunchedAfterDestroyIs161002) {
  Rng rng = Rng::ForCurrentTest();
  SingleAdd add(rng);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(add.executor), ACLNN_SUCCESS);
  ASSERT_EQ(add.Launch(add.executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclDestroyAclOpExecutor(add.executor), ACLNN_SUCCESS) << "the queued run keeps it alive";
  EXPECT_EQ(add.Launch(add.executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("no longer live"));
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ExpectNear(add.out.ReadView(), AddReference(add.selfValues, add.otherValues), "the run queued before destroy");
  EXPECT_EQ(add.Launch(add.executor), ACLNN_ERR_PARAM_INVALID) << "after the queued run has freed it";
}

TEST(ExecutorMisuse, DestroyedTwiceIs161002) {
  Rng rng = Rng::ForCurrentTest();
  SingleAdd repeatable(rng);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(repeatable.executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclDestroyAclOpExecutor(repeatable.executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(repeatable.executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("aclDestroyAclOpExecutor"));
  // A non-repeatable executor is freed by its phase 2: destroying it afterwards is the same mistake.
  SingleAdd single(rng);
  ASSERT_EQ(single.Launch(single.executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(single.executor), ACLNN_ERR_PARAM_INVALID);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ExpectNear(single.out.ReadView(), AddReference(single.selfValues, single.otherValues), "launched executor");
}

// canopyDescribeExecutor names the planned steps, cuts at the capacity given
// with the full length reported, leaves the executor runnable, and refuses
// null arguments (161001) and executors no longer live (161002).
TEST(DescribeExecutor, NamesTheStepsAndRefusesStaleHandles) {
  Rng rng = Rng::ForCurrentTest();
  SingleAdd add(rng);
  size_t length = 0;
  ASSERT_EQ(canopyDescribeExecutor(add.executor, nullptr, 0, &length), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_GT(length, 0u);
  std::string text(length + 1, 'x');
  ASSERT_EQ(canopyDescribeExecutor(add.executor, text.data(), text.size(), &length), ACLNN_SUCCESS);
  EXPECT_EQ(text.find('\0'), length) << "NUL-terminated at the reported length";
  EXPECT_NE(text.find("elementwise"), std::string::npos) << text;
  char cut[8];
  std::fill(std::begin(cut), std::end(cut), 'x');
  size_t full = 0;
  ASSERT_EQ(canopyDescribeExecutor(add.executor, cut, sizeof(cut), &full), ACLNN_SUCCESS);
  EXPECT_EQ(full, length);
  EXPECT_EQ(std::string(cut), text.substr(0, sizeof(cut) - 1));
  EXPECT_EQ(canopyDescribeExecutor(add.executor, nullptr, 0, nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(canopyDescribeExecutor(add.executor, nullptr, 4, &length), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(canopyDescribeExecutor(nullptr, nullptr, 0, &length), ACLNN_ERR_INNER_NULLPTR);
  // Still runnable after being described; gone once its (single) launch has taken it.
  ASSERT_EQ(add.Launch(add.executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(canopyDescribeExecutor(add.executor, nullptr, 0, &length), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("canopyDescribeExecutor"));
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ExpectNear(add.out.ReadView(), AddReference(add.selfValues, add.otherValues), "the described executor's run");
}

TEST(ExecutorMisuse, RebindOrSetRepeatableWithAStaleExecutorIs161002) {
  Rng rng = Rng::ForCurrentTest();
  SingleAdd add(rng);
  aclTensor* tensor = add.args.Tensor(add.self);
  aclTensor* member = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kShape.data(),
                                      kShape.size(), add.self.data());
  aclTensorList* list = aclCreateTensorList(&member, 1);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(add.executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclDestroyAclOpExecutor(add.executor), ACLNN_SUCCESS);
  void* addr = add.other.data();
  EXPECT_EQ(aclSetInputTensorAddr(add.executor, 0, tensor, addr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetOutputTensorAddr(add.executor, 0, tensor, addr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetTensorAddr(add.executor, 0, tensor, addr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(AclSetInputTensorAddr(add.executor, 0, tensor, addr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetDynamicInputTensorAddr(add.executor, 0, 0, list, addr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetDynamicOutputTensorAddr(add.executor, 0, 0, list, addr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetDynamicTensorAddr(add.executor, 0, 0, list, addr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(add.executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("no longer live"));
  void* raw = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(tensor, &raw), ACLNN_SUCCESS);
  EXPECT_EQ(raw, add.self.data()) << "a rejected rebind leaves the tensor alone";
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
}

TEST(ExecutorMisuse, PointerThatIsNoHandleIs161002) {
  Rng rng = Rng::ForCurrentTest();
  SingleAdd add(rng);
  alignas(64) unsigned char notAnExecutor[256] = {};
  auto* bogus = reinterpret_cast<aclOpExecutor*>(notAnExecutor);
  EXPECT_EQ(add.Launch(bogus), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("not an executor handle"));
  EXPECT_EQ(aclDestroyAclOpExecutor(bogus), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(bogus), ACLNN_ERR_PARAM_INVALID);
  ASSERT_EQ(add.Launch(add.executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  ExpectNear(add.out.ReadView(), AddReference(add.selfValues, add.otherValues), "the real executor");
}

TEST_F(RepeatableAdd, RebindingADestroyedTensorIs161002) {
  aclTensor* doomed = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kShape.data(),
                                      kShape.size(), outB_.data());
  ASSERT_NE(doomed, nullptr);
  ASSERT_EQ(aclDestroyTensor(doomed), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetOutputTensorAddr(executor_, 0, doomed, outB_.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("not a live aclTensor"));
  EXPECT_EQ(aclSetInputTensorAddr(executor_, 0, doomed, selfB_.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetTensorAddr(executor_, 2, doomed, outB_.data()), ACLNN_ERR_PARAM_INVALID);
  RunAndCheck(selfA_, otherA_, outA_, "the executor keeps its addresses after rejected rebinds");
}

TEST_F(RepeatableAdd, RebindingThroughADestroyedTensorListIs161002) {
  aclTensor* member = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kShape.data(),
                                      kShape.size(), selfA_.data());
  aclTensorList* list = aclCreateTensorList(&member, 1);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetDynamicInputTensorAddr(executor_, 0, 0, list, selfB_.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("not a live aclTensorList"));
  EXPECT_EQ(aclSetDynamicOutputTensorAddr(executor_, 0, 0, list, outB_.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetDynamicTensorAddr(executor_, 0, 0, list, selfB_.data()), ACLNN_ERR_PARAM_INVALID);
  // A live list whose member the client destroyed on its own.
  aclTensor* lone = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kShape.data(),
                                    kShape.size(), selfA_.data());
  aclTensorList* holder = aclCreateTensorList(&lone, 1);
  ASSERT_EQ(aclDestroyTensor(lone), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetDynamicInputTensorAddr(executor_, 0, 0, holder, selfB_.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyTensorList(holder), ACLNN_SUCCESS) << "the member destroyed already is not freed again";
  RunAndCheck(selfA_, otherA_, outA_, "the executor keeps its addresses after rejected rebinds");
}

TEST(MetaMisuse, DestroyingATensorTwiceIs161002) {
  aclTensor* tensor = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kShape.data(),
                                      kShape.size(), nullptr);
  ASSERT_NE(tensor, nullptr);
  ASSERT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("aclDestroyTensor"));
  EXPECT_EQ(aclSetRawTensorAddr(tensor, nullptr), ACLNN_ERR_PARAM_INVALID);
  aclTensorList* list = aclCreateTensorList(nullptr, 0);
  ASSERT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_ERR_PARAM_INVALID);
}

// Scalars, arrays and scalar lists too: a second destroy is refused, and a
// scalar list frees a member destroyed on its own, or listed twice, once.
TEST(MetaMisuse, DestroyingAScalarOrAnArrayTwiceIs161002) {
  float one = 1.0f;
  aclScalar* scalar = aclCreateScalar(&one, ACL_FLOAT);
  ASSERT_NE(scalar, nullptr);
  ASSERT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(scalar), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("aclDestroyScalar"));
  const int64_t dims[] = {0, 1};
  aclIntArray* ints = aclCreateIntArray(dims, 2);
  ASSERT_EQ(aclDestroyIntArray(ints), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(ints), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RecentMessageContains("aclIntArray"));
  aclFloatArray* floats = aclCreateFloatArray(&one, 1);
  ASSERT_EQ(aclDestroyFloatArray(floats), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(floats), ACLNN_ERR_PARAM_INVALID);
  const bool flag = true;
  aclBoolArray* bools = aclCreateBoolArray(&flag, 1);
  ASSERT_EQ(aclDestroyBoolArray(bools), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(bools), ACLNN_ERR_PARAM_INVALID);
  // One handle kind is not another: an int array is no float array to destroy.
  aclIntArray* other = aclCreateIntArray(dims, 2);
  EXPECT_EQ(aclDestroyFloatArray(reinterpret_cast<aclFloatArray*>(other)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyIntArray(other), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(nullptr), ACLNN_SUCCESS);
}

TEST(MetaMisuse, AScalarListFreesEachMemberOnce) {
  float one = 1.0f, two = 2.0f;
  aclScalar* shared = aclCreateScalar(&one, ACL_FLOAT);
  aclScalar* lone = aclCreateScalar(&two, ACL_FLOAT);
  const aclScalar* members[] = {shared, lone, shared, nullptr};
  aclScalarList* list = aclCreateScalarList(members, 4);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(aclDestroyScalar(lone), ACLNN_SUCCESS);  // destroyed by the client before its list
  EXPECT_EQ(aclDestroyScalarList(list), ACLNN_SUCCESS) << "shared is freed once, lone not again";
  EXPECT_EQ(aclDestroyScalarList(list), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyScalar(shared), ACLNN_ERR_PARAM_INVALID) << "the list destroyed it";
}

// Thousands of executors live at once and retired in random order, then as
// many again: no handle is given out twice, and every retired one stays refused.
TEST(ExecutorMisuse, HandlesAreNeverReusedAcrossThousandsOfExecutors) {
  Rng rng = Rng::ForCurrentTest();
  constexpr int kExecutors = 2500;
  DeviceTensor self(ACL_FLOAT, kShape), other(ACL_FLOAT, kShape), out(ACL_FLOAT, kShape);
  OpArgs args;
  aclTensor* s = args.Tensor(self);
  aclTensor* o = args.Tensor(other);
  aclTensor* d = args.Tensor(out);
  aclScalar* alpha = args.Scalar(ACL_FLOAT, kAlpha);
  std::mt19937_64 order(rng.seed());
  std::vector<aclOpExecutor*> retired;
  for (int generation = 0; generation < 2; ++generation) {
    std::vector<aclOpExecutor*> live(kExecutors, nullptr);
    uint64_t workspaceSize = 0;
    for (aclOpExecutor*& executor : live) {
      ASSERT_EQ(aclnnAddGetWorkspaceSize(s, o, alpha, d, &workspaceSize, &executor), ACLNN_SUCCESS);
    }
    std::vector<aclOpExecutor*> all = live;
    all.insert(all.end(), retired.begin(), retired.end());
    std::sort(all.begin(), all.end());
    EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a handle was given out twice";
    std::shuffle(live.begin(), live.end(), order);
    for (aclOpExecutor* executor : live) ASSERT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    retired.insert(retired.end(), live.begin(), live.end());
    for (aclOpExecutor* executor : retired) ASSERT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID);
  }
}

// Threads that plan, launch, reuse and retire executors at once, each on its
// own stream: the handle table serialises them and no launch is lost or doubled.
TEST(ExecutorMisuse, ThreadsPlanLaunchAndRetireExecutorsConcurrently) {
  constexpr int kThreads = 4;
  constexpr int kIterations = 100;
  const uint64_t seed = Rng::ForCurrentTest().seed();
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, seed, &failures] {
      std::string& failure = failures[t];
      const auto expect = [&failure](bool ok, const std::string& what) {
        if (!ok && failure.empty()) failure = what + ": " + aclGetRecentErrMsg();
      };
      expect(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
      aclrtStream stream = nullptr;
      expect(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
      Rng rng(seed + t);
      DeviceTensor self(ACL_FLOAT, kShape), other(ACL_FLOAT, kShape), out(ACL_FLOAT, kShape);
      const Values s = self.FillRandom(rng, Range{});
      const Values o = other.FillRandom(rng, Range{});
      OpArgs args;
      aclTensor* selfTensor = args.Tensor(self);
      aclTensor* otherTensor = args.Tensor(other);
      aclTensor* outTensor = args.Tensor(out);
      aclScalar* alpha = args.Scalar(ACL_FLOAT, kAlpha);
      for (int i = 0; i < kIterations && failure.empty(); ++i) {
        uint64_t workspaceSize = 0;
        aclOpExecutor* executor = nullptr;
        expect(aclnnAddGetWorkspaceSize(selfTensor, otherTensor, alpha, outTensor, &workspaceSize, &executor) ==
                   ACLNN_SUCCESS,
               "phase 1");
        expect(workspaceSize == 0, "Add of equal shapes needs no workspace");
        const bool repeatable = i % 2 == 0;
        if (repeatable) expect(aclSetAclOpExecutorRepeatable(executor) == ACLNN_SUCCESS, "repeatable");
        expect(aclnnAdd(nullptr, 0, executor, stream) == ACLNN_SUCCESS, "first launch");
        if (repeatable) {
          expect(aclnnAdd(nullptr, 0, executor, stream) == ACLNN_SUCCESS, "second launch (repeatable)");
          expect(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "destroy");
        }
        expect(aclnnAdd(nullptr, 0, executor, stream) == ACLNN_ERR_PARAM_INVALID, "launch of a retired handle");
      }
      expect(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "synchronise");
      const Expected reference = AddReference(s, o);
      const Values result = out.ReadView();
      expect(result.size() == reference.values.size(), "result size");
      for (size_t i = 0; i < result.size() && i < reference.values.size(); ++i) {
        expect(std::abs(result[i] - reference.values[i]) <= reference.tolerance[i], "element " + std::to_string(i));
      }
      expect(aclrtDestroyStream(stream) == ACL_SUCCESS, "aclrtDestroyStream");
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

// Many live tensors, destroyed in random order: each destroy succeeds once, and
// a rebind or second destroy of one already gone is refused, whatever else is live.
TEST(MetaMisuse, ManyTensorsDestroyedInAnyOrderExactlyOnce) {
  Rng rng = Rng::ForCurrentTest();
  constexpr int kTensors = 5000;
  std::vector<aclTensor*> tensors;
  for (int i = 0; i < kTensors; ++i) {
    tensors.push_back(aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kShape.data(),
                                      kShape.size(), nullptr));
    ASSERT_NE(tensors.back(), nullptr);
  }
  std::mt19937_64 order(rng.seed());
  std::shuffle(tensors.begin(), tensors.end(), order);
  for (size_t i = 0; i < tensors.size(); ++i) {
    ASSERT_EQ(aclDestroyTensor(tensors[i]), ACLNN_SUCCESS) << "tensor " << i;
    // Every tensor destroyed so far stays refused while the others are live.
    if (i % 97 == 0) {
      for (size_t j = 0; j <= i; ++j) ASSERT_EQ(aclSetRawTensorAddr(tensors[j], nullptr), ACLNN_ERR_PARAM_INVALID);
      for (size_t j = i + 1; j < tensors.size(); ++j)
        ASSERT_EQ(aclSetRawTensorAddr(tensors[j], nullptr), ACLNN_SUCCESS);
    }
  }
}

// ---- Plan cache hazards -------------------------------------------------------------------------

// Plans for the same op, dtypes and shapes must still use their own data,
// scalars, view offsets and attributes.
TEST(PlanCache, SameShapesWithOtherScalarsAddressesAndOffsets) {
  Rng rng = Rng::ForCurrentTest();
  const Shape shape = {16, 33};
  for (double alpha : {0.5, 2.0, -1.0, 0.5}) {
    DeviceTensor self(ACL_FLOAT, shape), other(ACL_FLOAT, shape), out(ACL_FLOAT, shape);
    const Values s = self.FillRandom(rng, Range{}), o = other.FillRandom(rng, Range{});
    out.Poison();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          return aclnnAddGetWorkspaceSize(args.Tensor(self), args.Tensor(other), args.Scalar(ACL_FLOAT, alpha),
                                          args.Tensor(out), workspaceSize, executor);
        },
        aclnnAdd);
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectNear(out.ReadView(), ReferenceBinary(BinaryOp::kAdd, s, shape, o, shape, alpha, ACL_FLOAT, ACL_FLOAT),
               "alpha " + std::to_string(alpha));
  }
  // Same shape and strides, different view offsets into same-sized storage.
  for (int64_t offset : {0, 7, 3}) {
    Layout layout{shape, ContiguousStrides(shape), offset, {NumElements(shape) + 8}};
    DeviceTensor self(ACL_FLOAT, layout), out(ACL_FLOAT, layout);
    const Values s = self.FillRandom(rng, Range{});
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          return aclnnMulsGetWorkspaceSize(args.Tensor(self), args.Scalar(ACL_FLOAT, 3.0), args.Tensor(out),
                                           workspaceSize, executor);
        },
        aclnnMuls);
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectNear(out.ReadView(), ReferenceBinary(BinaryOp::kMul, s, shape, {3.0}, {}, 1.0, ACL_FLOAT, ACL_FLOAT),
               "offset " + std::to_string(offset));
    ExpectOutsideViewUnchanged(out, before, "offset " + std::to_string(offset));
  }
  // Same input, different target dtype (an attribute of Cast).
  DeviceTensor src(ACL_FLOAT, shape);
  const Values v = src.FillRandom(rng, Range{-100, 100});
  for (aclDataType dtype : {ACL_INT32, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE}) {
    DeviceTensor dst(dtype, shape);
    dst.Poison();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          return aclnnCastGetWorkspaceSize(args.Tensor(src), dtype, args.Tensor(dst), workspaceSize, executor);
        },
        aclnnCast);
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectNear(dst.ReadView(), ReferenceCast(v, dtype), std::string("cast to ") + Name(dtype));
  }
}

// Two executors planned from the same cache entry, run in the opposite order.
TEST(PlanCache, TwoLiveExecutorsOfTheSamePlan) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self1(ACL_FLOAT, kShape), other1(ACL_FLOAT, kShape), out1(ACL_FLOAT, kShape);
  DeviceTensor self2(ACL_FLOAT, kShape), other2(ACL_FLOAT, kShape), out2(ACL_FLOAT, kShape);
  const Values s1 = self1.FillRandom(rng, Range{}), o1 = other1.FillRandom(rng, Range{});
  const Values s2 = self2.FillRandom(rng, Range{}), o2 = other2.FillRandom(rng, Range{});
  out1.Poison();
  out2.Poison();
  OpArgs args1, args2;
  uint64_t size1 = 0, size2 = 0;
  aclOpExecutor* executor1 = nullptr;
  aclOpExecutor* executor2 = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(args1.Tensor(self1), args1.Tensor(other1), args1.Scalar(ACL_FLOAT, kAlpha),
                                     args1.Tensor(out1), &size1, &executor1),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAddGetWorkspaceSize(args2.Tensor(self2), args2.Tensor(other2), args2.Scalar(ACL_FLOAT, 3.0),
                                     args2.Tensor(out2), &size2, &executor2),
            ACLNN_SUCCESS);
  args1.DestroyDescriptors();
  args2.DestroyDescriptors();
  DeviceBuffer workspace1(size1), workspace2(size2);
  ASSERT_EQ(aclnnAdd(WorkspaceOrNull(workspace2, size2), size2, executor2, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(WorkspaceOrNull(workspace1, size1), size1, executor1, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ExpectNear(out1.ReadView(), AddReference(s1, o1), "first executor");
  ExpectNear(out2.ReadView(), ReferenceBinary(BinaryOp::kAdd, s2, kShape, o2, kShape, 3.0, ACL_FLOAT, ACL_FLOAT),
             "second executor");
}

// ---- Phase 2 ------------------------------------------------------------------------------------

TEST(Phase2, NullWorkspaceWithNonZeroSizeIs161001) {
  DeviceTensor self(ACL_FLOAT, kShape), other(ACL_FLOAT, kShape), out(ACL_FLOAT, kShape);
  OpArgs args;
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(args.Tensor(self), args.Tensor(other), args.Scalar(ACL_FLOAT, 1.0),
                                     args.Tensor(out), &workspaceSize, &executor),
            ACLNN_SUCCESS);
  args.DestroyDescriptors();
  // The (non-repeatable) executor is released by the failing phase 2, as on CANN.
  EXPECT_EQ(aclnnAdd(nullptr, kBogusWorkspaceSize, executor, TestStream()), ACLNN_ERR_PARAM_NULLPTR);
  const char* message = aclGetRecentErrMsg();
  EXPECT_TRUE(message != nullptr && message[0] != '\0') << "aclGetRecentErrMsg() is empty";
  EXPECT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
}

// A tensor with bytes to touch and no address (created with null data, as
// CANN's rebinding examples do, then never rebound; or rebound to null): phase
// 2 refuses it (161001) instead of the kernel crashing the process.
TEST(Phase2, NullTensorAddressIs161001) {
  DeviceTensor other(ACL_FLOAT, kShape), out(ACL_FLOAT, kShape);
  aclTensor* self = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kShape.data(),
                                    kShape.size(), nullptr);
  ASSERT_NE(self, nullptr);
  OpArgs args;
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(self, args.Tensor(other), args.Scalar(ACL_FLOAT, 1.0), args.Tensor(out),
                                     &workspaceSize, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  DeviceBuffer workspace(workspaceSize);
  EXPECT_EQ(aclnnAdd(WorkspaceOrNull(workspace, workspaceSize), workspaceSize, executor, TestStream()),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(RecentMessageContains("null device address"));
  DeviceTensor real(ACL_FLOAT, kShape);
  real.FillRandom(*std::make_unique<Rng>(Rng::ForCurrentTest()), Range{});
  ASSERT_EQ(aclSetInputTensorAddr(executor, 0, self, real.data()), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdd(WorkspaceOrNull(workspace, workspaceSize), workspaceSize, executor, TestStream()), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, args.Tensor(out), nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdd(WorkspaceOrNull(workspace, workspaceSize), workspaceSize, executor, TestStream()),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(self), ACLNN_SUCCESS);
}

// Nonzero gives out its shape after the run; a client that destroyed out
// after phase 1 got a write into freed memory (ASan: heap-use-after-free).
TEST(Phase2, NonzeroWithItsOutDestroyedAfterPhase1) {
  DeviceTensor self(ACL_FLOAT, {2, 3}), out(ACL_INT64, {6, 2});
  self.WriteView({0, 1, 0, 2, 0, 3});
  aclTensor* selfTensor = aclCreateTensor(std::vector<int64_t>{2, 3}.data(), 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                                          std::vector<int64_t>{2, 3}.data(), 2, self.data());
  aclTensor* outTensor = aclCreateTensor(std::vector<int64_t>{6, 2}.data(), 2, ACL_INT64, nullptr, 0, ACL_FORMAT_ND,
                                         std::vector<int64_t>{6, 2}.data(), 2, out.data());
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnNonzeroGetWorkspaceSize(selfTensor, outTensor, &workspaceSize, &executor), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclDestroyTensor(outTensor), ACLNN_SUCCESS);
  DeviceBuffer workspace(workspaceSize);
  EXPECT_EQ(aclnnNonzero(WorkspaceOrNull(workspace, workspaceSize), workspaceSize, executor, TestStream()),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const Values written = out.ReadView();  // the first 3 rows of [N, 2]: (0, 1), (1, 0), (1, 2)
  ExpectExact(Values(written.begin(), written.begin() + 6), {0, 1, 1, 0, 1, 2}, "indices");
  EXPECT_EQ(aclDestroyTensor(selfTensor), ACLNN_SUCCESS);
}

// Getters on a destroyed descriptor are refused (161002) instead of reading
// freed memory; an array whose end would wrap the address space is refused.
TEST(MetaMisuse, GettersOnADestroyedObjectAndArraysPastMemory) {
  aclTensor* tensor = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kShape.data(),
                                      kShape.size(), nullptr);
  ASSERT_NE(tensor, nullptr);
  aclDataType dtype = ACL_DT_UNDEFINED;
  EXPECT_EQ(aclGetDataType(tensor, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_FLOAT);
  ASSERT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetDataType(tensor, &dtype), ACLNN_ERR_PARAM_INVALID);
  int64_t* dims = nullptr;
  uint64_t count = 0;
  EXPECT_EQ(aclGetViewShape(tensor, &dims, &count), ACLNN_ERR_PARAM_INVALID);
  aclIntArray* array = aclCreateIntArray(std::vector<int64_t>{1, 2}.data(), 2);
  ASSERT_NE(array, nullptr);
  ASSERT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
  uint64_t size = 0;
  EXPECT_EQ(aclGetIntArraySize(array, &size), ACLNN_ERR_PARAM_INVALID);
  const int64_t one = 1;
  EXPECT_EQ(aclCreateIntArray(&one, uint64_t{1} << 61), nullptr);
  EXPECT_TRUE(RecentMessageContains("aclCreateIntArray"));
  const float f = 1;
  EXPECT_EQ(aclCreateFloatArray(&f, uint64_t{1} << 62), nullptr);
}

TEST(Phase2, OnlyEnqueuesTheWork) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, kShape), other(ACL_FLOAT, kShape), out(ACL_FLOAT, kShape);
  const Values s = self.FillRandom(rng, Range{}), o = other.FillRandom(rng, Range{});
  out.Poison();
  const std::vector<uint8_t> poisoned = out.DownloadBytes();
  StreamGate gate;
  gate.Enqueue(TestStream());
  OpArgs args;
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(args.Tensor(self), args.Tensor(other), args.Scalar(ACL_FLOAT, kAlpha),
                                     args.Tensor(out), &workspaceSize, &executor),
            ACLNN_SUCCESS);
  DeviceBuffer workspace(workspaceSize);
  ASSERT_EQ(aclnnAdd(WorkspaceOrNull(workspace, workspaceSize), workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  args.DestroyDescriptors();
  EXPECT_EQ(out.DownloadBytes(), poisoned) << "phase 2 ran the op instead of enqueueing it behind the gate";
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ExpectNear(out.ReadView(), AddReference(s, o), "after the gate opened");
}

// ---- The seed's pipeline ------------------------------------------------------------------------

std::atomic<int> gWorkspacesFreed{0};

void FreeWorkspaceInStreamOrder(void* workspace) {
  EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
  ++gWorkspacesFreed;
}

// Phase 1 and 2 of one op; descriptors destroyed at once; its workspace
// given back by a host function queued behind it. Returns 1 if a workspace
// release was queued.
int Enqueue(OpArgs& args, const Phase1& phase1, Phase2 phase2) {
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(phase1(args, &workspaceSize, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    EXPECT_EQ(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  EXPECT_EQ(phase2(workspace, workspaceSize, executor, TestStream()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  args.DestroyDescriptors();
  if (workspace == nullptr) return 0;
  EXPECT_EQ(aclrtLaunchHostFunc(TestStream(), FreeWorkspaceInStreamOrder, workspace), ACL_SUCCESS);
  return 1;
}

TEST(AsyncPipeline, MatmulThenAddWithOneSynchronisation) {
  Rng rng = Rng::ForCurrentTest();
  constexpr int64_t M = 64, K = 128, N = 96;
  DeviceTensor a(ACL_FLOAT, {M, K}), b(ACL_FLOAT, {K, N}), product(ACL_FLOAT, {M, N});
  DeviceTensor bias(ACL_FLOAT, {N}), result(ACL_FLOAT, {M, N});
  const Values av = a.FillRandom(rng, Range{-1, 1}), bv = b.FillRandom(rng, Range{-1, 1});
  const Values biasValues = bias.FillRandom(rng, Range{-1, 1});
  product.Poison();
  result.Poison();
  gWorkspacesFreed = 0;

  // Hold the stream so that everything is enqueued before anything runs.
  StreamGate gate;
  gate.Enqueue(TestStream());
  OpArgs matmulArgs, addArgs;
  int queuedFrees = Enqueue(
      matmulArgs,
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnMatmulGetWorkspaceSize(args.Tensor(a), args.Tensor(b), args.Tensor(product), 1, workspaceSize,
                                           executor);
      },
      aclnnMatmul);
  queuedFrees += Enqueue(
      addArgs,
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnAddGetWorkspaceSize(args.Tensor(product), args.Tensor(bias), args.Scalar(ACL_FLOAT, 1.0),
                                        args.Tensor(result), workspaceSize, executor);
      },
      aclnnAdd);
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(gWorkspacesFreed.load(), queuedFrees) << "every queued workspace release ran before the sync returned";

  // cubeMathType 1 may run f32 as HF32.
  const MatmulPrecision precision{ACL_FLOAT, ACL_FLOAT, 0x1p-11};
  Expected want = *ReferenceMatmul(av, {M, K}, bv, {K, N}, precision, nullptr);
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      const size_t at = static_cast<size_t>(i * N + j);
      const double biasValue = biasValues[static_cast<size_t>(j)].real();
      want.tolerance[at] += 4 * UnitRoundoff(ACL_FLOAT) * (std::abs(want.values[at]) + std::fabs(biasValue));
      want.values[at] += biasValue;
    }
  }
  ExpectNear(result.ReadView(), want, "matmul + bias");
}

}  // namespace
}  // namespace canopy_test
