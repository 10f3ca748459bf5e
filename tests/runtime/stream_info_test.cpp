// Stream creation options, ids, attributes, failure mode, and the context
// queries (src/runtime/api_stream_info.cpp, api_context_info.cpp).
#include <atomic>
#include <set>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

TEST(StreamInfo, ConfigHandleCreatesAStreamWithItsPriority) {
  aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(config, nullptr);
  const uint32_t priority = 3;
  ACL_ASSERT_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof(priority)));
  const uint64_t flag = ACL_STREAM_FAST_LAUNCH;
  ACL_ASSERT_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)));
  EXPECT_EQ(config->priority, 3u);
  EXPECT_EQ(config->flag, ACL_STREAM_FAST_LAUNCH);
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStreamV2(&stream, config));
  uint32_t got = 99;
  ACL_ASSERT_OK(aclrtStreamGetPriority(stream, &got));
  EXPECT_EQ(got, 3u);
  aclrtStreamAttrValue value{};
  ACL_ASSERT_OK(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
  EXPECT_EQ(value.streamPriority, 3u);
  ACL_EXPECT_OK(aclrtDestroyStream(stream));

  ACL_EXPECT_ERROR(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, 2), ACL_ERROR_INVALID_PARAM,
                   "aclrtSetStreamConfigOpt");
  ACL_EXPECT_ERROR(aclrtSetStreamConfigOpt(config, static_cast<aclrtStreamConfigAttr>(9), &priority, 4),
                   ACL_ERROR_INVALID_PARAM, "aclrtSetStreamConfigOpt");
  ACL_EXPECT_ERROR(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, nullptr, 4), ACL_ERROR_INVALID_PARAM,
                   "aclrtSetStreamConfigOpt");
  ACL_EXPECT_ERROR(aclrtCreateStreamV2(&stream, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2");
  ACL_EXPECT_OK(aclrtDestroyStreamConfigHandle(config));
  ACL_EXPECT_ERROR(aclrtDestroyStreamConfigHandle(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamConfigHandle");
}

TEST(StreamInfo, IdsAreDistinct) {
  ScopedStream first, second;
  int32_t a = -1, b = -1, fallback = -1;
  ACL_ASSERT_OK(aclrtStreamGetId(first, &a));
  ACL_ASSERT_OK(aclrtStreamGetId(second, &b));
  ACL_ASSERT_OK(aclrtStreamGetId(nullptr, &fallback));  // the default stream
  EXPECT_EQ(std::set<int32_t>({a, b, fallback}).size(), 3u);
  ACL_EXPECT_ERROR(aclrtStreamGetId(first, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId");
  int not_a_stream = 0;
  ACL_EXPECT_ERROR(aclrtStreamGetId(&not_a_stream, &a), ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId");
}

TEST(StreamInfo, FailureModeContinueIsTheOneThereIs) {
  ScopedStream stream;
  ACL_EXPECT_OK(aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE));
  ACL_EXPECT_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "aclrtSetStreamFailureMode: not supported");
  ACL_EXPECT_ERROR(aclrtSetStreamFailureMode(stream, 7), ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode");
  aclrtStreamAttrValue value{};
  value.failureMode = ACL_CONTINUE_ON_FAILURE;
  ACL_EXPECT_OK(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  value.failureMode = 42;
  ACL_ASSERT_OK(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  EXPECT_EQ(value.failureMode, ACL_CONTINUE_ON_FAILURE);
  ACL_EXPECT_ERROR(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value),
                   ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSetStreamAttribute: not supported");
  ACL_EXPECT_ERROR(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value),
                   ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetStreamAttribute: not supported");
  ACL_EXPECT_ERROR(aclrtGetStreamAttribute(stream, static_cast<aclrtStreamAttr>(77), &value), ACL_ERROR_INVALID_PARAM,
                   "aclrtGetStreamAttribute");
  ACL_EXPECT_ERROR(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtGetStreamAttribute");
}

std::atomic<int> consumer_ran{0};
void MarkConsumer(void*) { consumer_ran.store(1); }

TEST(StreamInfo, WaitEventWithDefaultFlagOrdersStreams) {
  ScopedStream producer, consumer;
  aclrtEvent ready = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&ready));
  consumer_ran.store(0);
  {
    StreamBlocker blocker(producer);
    ACL_ASSERT_OK(aclrtRecordEvent(ready, producer));
    ACL_ASSERT_OK(aclrtStreamWaitEventWithFlag(consumer, ready, 0, ACL_EVENT_WAIT_DEFAULT));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(consumer, MarkConsumer, nullptr));
    // The consumer cannot pass the wait while the producer is held.
    aclrtStreamStatus status;
    ACL_ASSERT_OK(aclrtStreamQuery(consumer, &status));
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    EXPECT_EQ(consumer_ran.load(), 0);
  }
  ACL_ASSERT_OK(aclrtSynchronizeStreamWithTimeout(consumer, 30000));
  EXPECT_EQ(consumer_ran.load(), 1);
  ACL_EXPECT_ERROR(aclrtStreamWaitEventWithFlag(consumer, ready, 5, ACL_EVENT_WAIT_DEFAULT),
                   ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtStreamWaitEventWithFlag: not supported");
  ACL_EXPECT_ERROR(aclrtStreamWaitEventWithFlag(consumer, ready, 0, ACL_EVENT_WAIT_EXTERNAL),
                   ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtStreamWaitEventWithFlag: not supported");
  ACL_EXPECT_ERROR(aclrtStreamWaitEventWithFlag(consumer, nullptr, 0, ACL_EVENT_WAIT_DEFAULT), ACL_ERROR_INVALID_PARAM,
                   "aclrtStreamWaitEvent");
  ACL_EXPECT_OK(aclrtDestroyEvent(ready));
}

TEST(ContextInfo, CurrentDefaultStreamIsAUsableHandle) {
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&stream));
  ASSERT_NE(stream, nullptr);
  int32_t by_handle = -1, by_null = -2;
  ACL_ASSERT_OK(aclrtStreamGetId(stream, &by_handle));
  ACL_ASSERT_OK(aclrtStreamGetId(nullptr, &by_null));
  EXPECT_EQ(by_handle, by_null);
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
  ACL_EXPECT_ERROR(aclrtCtxGetCurrentDefaultStream(nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtCtxGetCurrentDefaultStream");
  aclError without_context = ACL_SUCCESS;
  std::thread([&without_context] {
    aclrtStream none = nullptr;
    without_context = aclrtCtxGetCurrentDefaultStream(&none);
  }).join();
  EXPECT_EQ(without_context, ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(ContextInfo, PrimaryContextStateFollowsSetAndResetDevice) {
  uint32_t flags = 99;
  int32_t active = -1;
  ACL_ASSERT_OK(aclrtGetPrimaryCtxState(0, &flags, &active));  // the environment set device 0
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(active, 1);
  ACL_ASSERT_OK(aclrtGetPrimaryCtxState(1, nullptr, &active));
  EXPECT_EQ(active, 0);
  {
    ContextGuard guard;
    ACL_ASSERT_OK(aclrtSetDevice(1));
    ACL_ASSERT_OK(aclrtGetPrimaryCtxState(1, nullptr, &active));
    EXPECT_EQ(active, 1);
    ACL_ASSERT_OK(aclrtResetDevice(1));
  }
  ACL_ASSERT_OK(aclrtGetPrimaryCtxState(1, nullptr, &active));
  EXPECT_EQ(active, 0);
  ACL_EXPECT_ERROR(aclrtGetPrimaryCtxState(2, &flags, &active), ACL_ERROR_RT_INVALID_DEVICEID,
                   "aclrtGetPrimaryCtxState");
  ACL_EXPECT_ERROR(aclrtGetPrimaryCtxState(0, nullptr, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtGetPrimaryCtxState");
}

}  // namespace
