// Events: creation flags, record/query/synchronise, reset, elapsed time, and
// destruction while records are still queued.
#include <thread>

// aclrtQueryEvent is deprecated in CANN but still part of the surface we test.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

TEST(Event, CreateAndDestroyChecks) {
  ACL_EXPECT_ERROR(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent");
  ACL_EXPECT_ERROR(aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM,
                   "aclrtCreateEventWithFlag");
  aclrtEvent event = nullptr;
  for (uint32_t flag : {ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE,
                        ACL_EVENT_CAPTURE_STREAM_PROGRESS, ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL}) {
    ACL_ASSERT_OK(aclrtCreateEventWithFlag(&event, flag));
    ACL_EXPECT_OK(aclrtDestroyEvent(event));
  }
  ACL_EXPECT_ERROR(aclrtCreateEventWithFlag(&event, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM,
                   "aclrtCreateEventWithFlag");  // EXTERNAL stands alone
  ACL_EXPECT_ERROR(aclrtCreateEventWithFlag(&event, ACL_EVENT_IPC), ACL_ERROR_INVALID_PARAM,
                   "aclrtCreateEventWithFlag");  // IPC only through ExWithFlag
  ACL_EXPECT_ERROR(aclrtCreateEventWithFlag(&event, 0x1000), ACL_ERROR_INVALID_PARAM, "aclrtCreateEventWithFlag");
  ACL_ASSERT_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC));
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
  ACL_EXPECT_ERROR(aclrtDestroyEvent(event), ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent");
  ACL_EXPECT_ERROR(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent");
  int not_an_event = 0;
  ACL_EXPECT_ERROR(aclrtRecordEvent(&not_an_event, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent");
  ACL_EXPECT_ERROR(aclrtRecordEvent(nullptr, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent");
  ACL_EXPECT_ERROR(aclrtSynchronizeEvent(&not_an_event), ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeEvent");
}

TEST(Event, StatusBeforeAndAfterTheStreamReachesTheRecord) {
  ScopedStream stream;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  aclrtEventStatus status = ACL_EVENT_STATUS_NOT_READY;
  // Nothing recorded yet: nothing to wait for.
  ACL_ASSERT_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  {
    StreamBlocker blocker(stream);
    ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
    ACL_ASSERT_OK(aclrtQueryEventStatus(event, &recorded));
    EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ACL_ASSERT_OK(aclrtQueryEvent(event, &status));
    EXPECT_EQ(status, ACL_EVENT_STATUS_NOT_READY);
    ACL_EXPECT_ERROR(aclrtSynchronizeEventWithTimeout(event, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                     "aclrtSynchronizeEventWithTimeout");
  }
  ACL_ASSERT_OK(aclrtSynchronizeEvent(event));
  ACL_ASSERT_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ACL_ASSERT_OK(aclrtQueryEvent(event, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
  ACL_EXPECT_OK(aclrtSynchronizeEventWithTimeout(event, -1));
  ACL_EXPECT_ERROR(aclrtSynchronizeEventWithTimeout(event, 0), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSynchronizeEventWithTimeout");
  ACL_EXPECT_ERROR(aclrtSynchronizeEventWithTimeout(event, -5), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSynchronizeEventWithTimeout");
  ACL_EXPECT_ERROR(aclrtQueryEventStatus(event, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus");
  ACL_EXPECT_ERROR(aclrtQueryEvent(event, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtQueryEvent");
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
}

void Sleep30ms(void*) { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }

TEST(Event, ElapsedTimeCoversTheWorkBetweenTheRecords) {
  ScopedStream stream;
  aclrtEvent start = nullptr, end = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&start));
  ACL_ASSERT_OK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC));
  float ms = -1.0f;
  ACL_EXPECT_ERROR(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                   "aclrtEventElapsedTime");  // never recorded
  {
    StreamBlocker blocker(stream);
    ACL_ASSERT_OK(aclrtRecordEvent(start, stream));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, Sleep30ms, nullptr));
    ACL_ASSERT_OK(aclrtRecordEvent(end, stream));
    ACL_EXPECT_ERROR(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                     "aclrtEventElapsedTime");  // not reached yet
  }
  ACL_ASSERT_OK(aclrtSynchronizeEvent(end));
  ACL_ASSERT_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 30.0f);
  ACL_EXPECT_ERROR(aclrtEventElapsedTime(nullptr, start, end), ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime");
  ACL_EXPECT_ERROR(aclrtEventElapsedTime(&ms, nullptr, end), ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime");
  ACL_EXPECT_ERROR(aclrtEventElapsedTime(&ms, start, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime");
  // After a reset the event has no timestamp until it is recorded again.
  ACL_ASSERT_OK(aclrtResetEvent(end, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  ACL_EXPECT_ERROR(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE, "aclrtEventElapsedTime");
  ACL_ASSERT_OK(aclrtRecordEvent(end, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  ACL_ASSERT_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 30.0f);
  ACL_EXPECT_OK(aclrtDestroyEvent(start));
  ACL_EXPECT_OK(aclrtDestroyEvent(end));
}

TEST(Event, WaitUsesTheRecordCurrentWhenTheWaitWasQueued) {
  ScopedStream first, second, waiter;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC));
  std::atomic<int> counter{0};
  {
    StreamBlocker blocker(first);
    ACL_ASSERT_OK(aclrtRecordEvent(event, first));
    ACL_ASSERT_OK(aclrtStreamWaitEvent(waiter, event));
    ACL_ASSERT_OK(canopyLaunchTask(waiter, "count", IncrementCounterTask, nullptr, &counter));
    ASSERT_TRUE(blocker.WaitEntered());
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(waiter, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(counter.load(), 0);
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(waiter));
  EXPECT_EQ(counter.load(), 1);
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
}

TEST(Event, DestroyWhileARecordIsStillQueued) {
  ScopedStream stream, waiter;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  std::atomic<int> counter{0};
  {
    StreamBlocker blocker(stream);
    ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
    ACL_ASSERT_OK(aclrtStreamWaitEvent(waiter, event));
    ACL_ASSERT_OK(canopyLaunchTask(waiter, "count", IncrementCounterTask, nullptr, &counter));
    ACL_ASSERT_OK(aclrtDestroyEvent(event));  // does not block; queued work keeps it alive
    aclrtEventRecordedStatus status;
    ACL_EXPECT_ERROR(aclrtQueryEventStatus(event, &status), ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus");
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(waiter));
  EXPECT_EQ(counter.load(), 1);
}

}  // namespace
