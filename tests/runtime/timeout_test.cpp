// Operator timeouts (src/runtime/api_timeout.cpp): Canopy never times out, so
// 0 ("no timeout") is accepted and read back, anything else is refused.
#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

TEST(Timeout, ZeroMeansNeverAndIsAccepted) {
  ACL_EXPECT_OK(aclrtSetOpWaitTimeout(0));
  ACL_EXPECT_OK(aclrtSetOpExecuteTimeOut(0));
  ACL_EXPECT_OK(aclrtSetOpExecuteTimeOutWithMs(0));
  uint64_t actual = 99;
  ACL_EXPECT_OK(aclrtSetOpExecuteTimeOutV2(0, &actual));
  EXPECT_EQ(actual, 0u);
  uint32_t timeout = 99;
  ACL_ASSERT_OK(aclrtGetOpExecuteTimeout(&timeout));
  EXPECT_EQ(timeout, 0u);
}

TEST(Timeout, AnyOtherValueIsNotSupported) {
  ACL_EXPECT_ERROR(aclrtSetOpWaitTimeout(1868), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtSetOpWaitTimeout: not supported");
  ACL_EXPECT_ERROR(aclrtSetOpExecuteTimeOut(30), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtSetOpExecuteTimeOut: not supported");
  ACL_EXPECT_ERROR(aclrtSetOpExecuteTimeOutWithMs(500), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtSetOpExecuteTimeOutWithMs: not supported");
  uint64_t actual = 99;
  ACL_EXPECT_ERROR(aclrtSetOpExecuteTimeOutV2(500, &actual), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtSetOpExecuteTimeOutV2: not supported");
  EXPECT_EQ(actual, 99u);
  // Refused, the timeout is still "never".
  uint32_t timeout = 99;
  ACL_ASSERT_OK(aclrtGetOpExecuteTimeout(&timeout));
  EXPECT_EQ(timeout, 0u);
}

TEST(Timeout, NullOutputs) {
  ACL_EXPECT_ERROR(aclrtSetOpExecuteTimeOutV2(0, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtSetOpExecuteTimeOutV2");
  ACL_EXPECT_ERROR(aclrtGetOpExecuteTimeout(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtGetOpExecuteTimeout");
}

}  // namespace
