// Sleep through the public API: the stream waits about cycles / 1.65e9 seconds
// (checked only from below: timings are no assertions), zero cycles runs at
// once, the work queued after it waits for it, and negative cycles are 161002.
#include <gtest/gtest.h>

#include <chrono>

#include "aclnnop/aclnn_sleep.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kTenthOfASecond = 165000000;  // cycles at 1.65 GHz

OpRun RunSleep(int64_t cycles) {
  return RunOp(
      [cycles](OpArgs&, uint64_t* ws, aclOpExecutor** ex) { return aclnnSleepGetWorkspaceSize(cycles, ws, ex); },
      aclnnSleep);
}

TEST(Sleep, HoldsTheStreamForItsCycles) {
  const auto start = std::chrono::steady_clock::now();
  const OpRun run = RunSleep(kTenthOfASecond);  // phase 2, then one synchronisation
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0u);
  EXPECT_GE(elapsed, std::chrono::milliseconds(100));
}

TEST(Sleep, ZeroCyclesRuns) {
  const OpRun run = RunSleep(0);
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0u);
}

TEST(Sleep, LaterWorkOnTheStreamWaitsForIt) {
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnSleepGetWorkspaceSize(kTenthOfASecond / 2, &workspaceSize, &executor), ACLNN_SUCCESS);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(aclnnSleep(nullptr, workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, TestStream()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST(Sleep, RejectsNegativeCycles) {
  ExpectRejection({"negative",
                   [](OpArgs&, uint64_t* ws, aclOpExecutor** ex) { return aclnnSleepGetWorkspaceSize(-1, ws, ex); },
                   aclnnSleep, "cycles"});
}

}  // namespace
}  // namespace canopy_test
