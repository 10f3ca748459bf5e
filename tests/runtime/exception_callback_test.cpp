// Exception-info callbacks hear of every failed task, with the task's stream,
// device, position and status (src/runtime/api_exception.cpp).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // aclrtSetExceptionInfoCallback

#include <mutex>
#include <vector>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

struct Seen {
  uint32_t task, stream, thread, device, code;
};
std::mutex seen_mutex;
std::vector<Seen> seen;

void Record(aclrtExceptionInfo* info) {
  std::lock_guard lock(seen_mutex);
  seen.push_back({aclrtGetTaskIdFromExceptionInfo(info), aclrtGetStreamIdFromExceptionInfo(info),
                  aclrtGetThreadIdFromExceptionInfo(info), aclrtGetDeviceIdFromExceptionInfo(info),
                  aclrtGetErrorCodeFromExceptionInfo(info)});
}
std::vector<Seen> TakeSeen() {
  std::lock_guard lock(seen_mutex);
  return std::exchange(seen, {});
}

int32_t Succeed(void*) { return ACL_SUCCESS; }
int32_t FailTask(void*) { return ACL_ERROR_RT_AICORE_EXCEPTION; }

// Unregisters on every exit path: the callbacks are process-wide.
struct Registered {
  Registered() { EXPECT_EQ(aclrtExceptionInfoCallbackRegister(Record), ACL_SUCCESS) << RecentMessage(); }
  ~Registered() { (void)aclrtExceptionInfoCallbackUnregister(Record); }
};

TEST(ExceptionCallback, AFailedTaskIsReportedWithItsStreamDevicePositionAndCode) {
  TakeSeen();
  Registered registered;
  ScopedStream stream;
  int32_t stream_id = -1;
  ACL_ASSERT_OK(aclrtStreamGetId(stream, &stream_id));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "fine", Succeed, nullptr, nullptr));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "broken", FailTask, nullptr, nullptr));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "fine again", Succeed, nullptr, nullptr));
  // The callback has run by the time the synchronisation reports the failure.
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  const auto reports = TakeSeen();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].task, 2u);
  EXPECT_EQ(reports[0].stream, static_cast<uint32_t>(stream_id));
  EXPECT_EQ(reports[0].device, 0u);
  EXPECT_EQ(reports[0].code, static_cast<uint32_t>(ACL_ERROR_RT_AICORE_EXCEPTION));
  EXPECT_NE(reports[0].thread, 0u);
  // A stream that succeeds reports nothing.
  ACL_ASSERT_OK(canopyLaunchTask(stream, "fine", Succeed, nullptr, nullptr));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_TRUE(TakeSeen().empty());
}

TEST(ExceptionCallback, UnregisteredAndSetCallbacks) {
  TakeSeen();
  ACL_ASSERT_OK(aclrtExceptionInfoCallbackRegister(Record));
  ACL_EXPECT_ERROR(aclrtExceptionInfoCallbackRegister(Record), ACL_ERROR_INVALID_PARAM,
                   "aclrtExceptionInfoCallbackRegister");
  ACL_ASSERT_OK(aclrtExceptionInfoCallbackUnregister(Record));
  ACL_EXPECT_ERROR(aclrtExceptionInfoCallbackUnregister(Record), ACL_ERROR_INVALID_PARAM,
                   "aclrtExceptionInfoCallbackUnregister");
  ACL_EXPECT_ERROR(aclrtExceptionInfoCallbackRegister(nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtExceptionInfoCallbackRegister");
  ScopedStream stream;
  ACL_ASSERT_OK(canopyLaunchTask(stream, "broken", FailTask, nullptr, nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_TRUE(TakeSeen().empty());  // nobody is registered

  // The older single-callback API, cleared by null.
  ACL_ASSERT_OK(aclrtSetExceptionInfoCallback(Record));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "broken", FailTask, nullptr, nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(TakeSeen().size(), 1u);
  ACL_ASSERT_OK(aclrtSetExceptionInfoCallback(nullptr));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "broken", FailTask, nullptr, nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_TRUE(TakeSeen().empty());
}

TEST(ExceptionCallback, ReadersRejectANullInfo) {
  EXPECT_EQ(aclrtGetTaskIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_NE(RecentMessage().find("aclrtGetTaskIdFromExceptionInfo"), std::string::npos);
  EXPECT_EQ(aclrtGetErrorCodeFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_NE(RecentMessage().find("aclrtGetErrorCodeFromExceptionInfo"), std::string::npos);
}

}  // namespace
