// The calling thread's last runtime error code: aclrtPeekAtLastError reads it,
// aclrtGetLastError reads and clears it (src/runtime/api_last_error.cpp).
#include <thread>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

int32_t FailAsynchronously(void*) { return ACL_ERROR_RT_AICORE_EXCEPTION; }

TEST(LastError, AFailedCallIsRememberedUntilRead) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);  // whatever earlier tests left
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
  // Successful calls leave it alone.
  uint32_t count = 0;
  ACL_ASSERT_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  // The latest failure wins.
  EXPECT_EQ(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

TEST(LastError, AnAsynchronousFailureReportedBySynchronisationCounts) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  ScopedStream stream;
  ACL_ASSERT_OK(canopyLaunchTask(stream, "failing", FailAsynchronously, nullptr, nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_EXCEPTION);
}

TEST(LastError, IsPerThread) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
  aclError other = -1;
  std::thread([&other] { other = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL); }).join();
  EXPECT_EQ(other, ACL_SUCCESS);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST(LastError, AnUnknownLevelIsRejectedWithoutClearing) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
  ACL_EXPECT_ERROR(aclrtGetLastError(static_cast<aclrtLastErrLevel>(1)), ACL_ERROR_INVALID_PARAM, "aclrtGetLastError");
  ACL_EXPECT_ERROR(aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(1)), ACL_ERROR_INVALID_PARAM,
                   "aclrtPeekAtLastError");
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
}

}  // namespace
