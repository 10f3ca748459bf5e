// Events recorded on several streams, records refused at enqueue, waits from
// inside host functions, and the operations CANN refuses on events made by
// aclrtCreateEventExWithFlag.
#include <atomic>
#include <functional>
#include <string>
#include <thread>

// aclrtQueryEvent is deprecated in CANN but still part of the surface we test.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

// A host function of stream B: notes whether stream A's gate had been opened.
struct OrderProbe {
  StreamBlocker* gate = nullptr;
  std::atomic<int> ran{0};
  std::atomic<int> ran_while_gate_closed{0};
};
void Probe(void* arg) {
  auto* probe = static_cast<OrderProbe*>(arg);
  if (!probe->gate->left()) probe->ran_while_gate_closed.fetch_add(1);
  probe->ran.fetch_add(1);
}

// Lets the engine look at every stream a few times (each synchronised task of
// `stream` is a separate round of the device's streams).
void LetTheEngineGoRound(aclrtStream stream) {
  std::atomic<int> tasks{0};
  for (int i = 0; i < 3; ++i) {
    ACL_ASSERT_OK(canopyLaunchTask(stream, "round", IncrementCounterTask, nullptr, &tasks));
    ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  }
}

TEST(EventOrdering, AWaitIsNotSatisfiedByALaterRecordOnAnotherStream) {
  ScopedStream a, b, c, d;
  aclrtEvent event = nullptr, after = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  ACL_ASSERT_OK(aclrtCreateEvent(&after));
  OrderProbe probe;
  {
    StreamBlocker gate(a);
    probe.gate = &gate;
    ASSERT_TRUE(gate.WaitEntered());
    ACL_ASSERT_OK(aclrtRecordEvent(event, a));  // cannot be reached until the gate opens
    ACL_ASSERT_OK(aclrtStreamWaitEvent(b, event));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(b, Probe, &probe));
    // A later record of the same event on an idle stream completes at once.
    ACL_ASSERT_OK(aclrtRecordEvent(event, c));
    ACL_ASSERT_OK(aclrtRecordEvent(after, c));
    ACL_ASSERT_OK(aclrtSynchronizeStream(c));
    LetTheEngineGoRound(d);
    EXPECT_EQ(probe.ran.load(), 0) << "stream B went past its wait before stream A reached the record";
    gate.Release();
    ACL_ASSERT_OK(aclrtSynchronizeStream(b));
  }
  EXPECT_EQ(probe.ran.load(), 1);
  EXPECT_EQ(probe.ran_while_gate_closed.load(), 0);
  ACL_ASSERT_OK(aclrtSynchronizeStream(a));
  // The event's time is that of its latest record (on C, before `after`), not
  // that of A's older record, which was reached last.
  float ms = 0.0f;
  ACL_ASSERT_OK(aclrtEventElapsedTime(&ms, event, after));
  EXPECT_GE(ms, 0.0f);
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
  ACL_EXPECT_OK(aclrtDestroyEvent(after));
}

TEST(EventOrdering, SynchronizeWaitsForTheLatestRecordOnly) {
  ScopedStream a, c;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  {
    StreamBlocker gate(a);
    ASSERT_TRUE(gate.WaitEntered());
    ACL_ASSERT_OK(aclrtRecordEvent(event, a));
    // The latest record is on C: waiting for it does not wait for A's.
    ACL_ASSERT_OK(aclrtRecordEvent(event, c));
    ACL_ASSERT_OK(aclrtSynchronizeEventWithTimeout(event, 30000));
    aclrtEventStatus status = ACL_EVENT_STATUS_NOT_READY;
    ACL_ASSERT_OK(aclrtQueryEvent(event, &status));
    EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
    EXPECT_FALSE(gate.left());
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(a));
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
}

// Enqueues with `enqueue` on a stream while another thread destroys that
// stream, until one enqueue has been refused because the stream was already
// being destroyed (it had been looked up just before). False if that never happened.
bool EnqueueUntilRefusedByDestruction(const std::function<aclError(aclrtStream)>& enqueue) {
  aclrtContext context = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  for (int attempt = 0; attempt < 20000; ++attempt) {
    aclrtStream stream = nullptr;
    EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::atomic<bool> go{false};
    std::thread destroyer([&] {
      EXPECT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
      while (!go.load()) {
      }
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS) << RecentMessage();
    });
    bool refused_late = false;
    go.store(true);
    while (enqueue(stream) == ACL_SUCCESS) {
    }
    refused_late = RecentMessage().find("being destroyed") != std::string::npos;
    destroyer.join();
    if (refused_late) return true;
  }
  return false;
}

// The event is not left waiting for a record that was never queued.
void ExpectEventUsable(aclrtEvent event) {
  ACL_EXPECT_OK(aclrtSynchronizeEventWithTimeout(event, 30000));
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ACL_ASSERT_OK(aclrtQueryEventStatus(event, &status));
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  aclrtStream waiter = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&waiter));
  ACL_EXPECT_OK(aclrtStreamWaitEvent(waiter, event));
  ACL_EXPECT_OK(aclrtSynchronizeStreamWithTimeout(waiter, 30000));
  ACL_EXPECT_OK(aclrtDestroyStreamForce(waiter));  // returns even if the wait never ends
}

TEST(EventOrdering, ARecordRefusedByAStreamBeingDestroyedDoesNotBlockLaterWaits) {
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  const bool raced =
      EnqueueUntilRefusedByDestruction([&](aclrtStream stream) { return aclrtRecordEvent(event, stream); });
  if (raced) ExpectEventUsable(event);
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
  if (!raced) GTEST_SKIP() << "no record lost the race with aclrtDestroyStream";
}

TEST(EventOrdering, AReplayRefusedByAStreamBeingDestroyedDoesNotBlockLaterWaits) {
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  aclmdlRI model = nullptr;
  {
    ScopedStream capturing;
    ACL_ASSERT_OK(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    // Nearly all of the model is records, so a replay refused part-way is
    // almost always refused at a record.
    for (int i = 0; i < 256; ++i) ACL_ASSERT_OK(aclrtRecordEvent(event, capturing));
    ACL_ASSERT_OK(aclmdlRICaptureEnd(capturing, &model));
  }
  const bool raced =
      EnqueueUntilRefusedByDestruction([&](aclrtStream stream) { return aclmdlRIExecuteAsync(model, stream); });
  if (raced) ExpectEventUsable(event);
  ACL_EXPECT_OK(aclmdlRIDestroy(model));
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
  if (!raced) GTEST_SKIP() << "no replay lost the race with aclrtDestroyStream";
}

struct EventSyncFromHost {
  aclrtEvent event = nullptr;
  std::atomic<aclError> status{ACL_SUCCESS};
  std::atomic<aclError> timed_status{ACL_SUCCESS};
  std::string message;
};
void SynchronizeEventFromHostFunction(void* arg) {
  auto* check = static_cast<EventSyncFromHost*>(arg);
  check->status.store(aclrtSynchronizeEvent(check->event));
  check->message = RecentMessage();
  check->timed_status.store(aclrtSynchronizeEventWithTimeout(check->event, 60000));
}

TEST(EventOrdering, SynchronizingOnARecordBehindYourOwnHostFunctionIsRefused) {
  ScopedStream stream;
  EventSyncFromHost check;
  ACL_ASSERT_OK(aclrtCreateEvent(&check.event));
  std::atomic<bool> finished{false};
  std::thread watchdog([&] {
    // Fails (rather than hangs) the test if the host function never returns.
    if (!WaitUntil([&] { return finished.load(); }, std::chrono::seconds(90))) {
      ADD_FAILURE() << "the host function waiting for the event never returned";
      std::abort();
    }
  });
  {
    // The record is queued behind the host function before that one starts.
    StreamBlocker gate(stream);
    ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, SynchronizeEventFromHostFunction, &check));
    ACL_ASSERT_OK(aclrtRecordEvent(check.event, stream));
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  finished.store(true);
  watchdog.join();
  EXPECT_EQ(check.status.load(), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_NE(check.message.find("aclrtSynchronizeEvent"), std::string::npos) << check.message;
  EXPECT_EQ(check.timed_status.load(), ACL_ERROR_RT_INTERNAL_ERROR);
  // From a host function of another stream the wait is fine.
  ScopedStream other;
  ACL_ASSERT_OK(aclrtRecordEvent(check.event, stream));
  ACL_ASSERT_OK(aclrtLaunchHostFunc(other, SynchronizeEventFromHostFunction, &check));
  ACL_ASSERT_OK(aclrtSynchronizeStream(other));
  EXPECT_EQ(check.status.load(), ACL_SUCCESS) << check.message;
  ACL_EXPECT_OK(aclrtDestroyEvent(check.event));
}

TEST(EventOrdering, ResetAndQueryAreNotSupportedOnEventsCreatedExWithFlag) {
  ScopedStream stream;
  for (uint32_t flag : {ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC, ACL_EVENT_IPC}) {
    aclrtEvent event = nullptr;
    ACL_ASSERT_OK(aclrtCreateEventExWithFlag(&event, flag));
    ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
    ACL_EXPECT_ERROR(aclrtResetEvent(event, stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtResetEvent");
    aclrtEventStatus status = ACL_EVENT_STATUS_NOT_READY;
    ACL_EXPECT_ERROR(aclrtQueryEvent(event, &status), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtQueryEvent");
    // What CANN does allow on them still works.
    ACL_EXPECT_OK(aclrtSynchronizeEvent(event));
    aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    ACL_EXPECT_OK(aclrtQueryEventStatus(event, &recorded));
    EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ACL_EXPECT_OK(aclrtDestroyEvent(event));
  }
  // IPC events give no elapsed time either.
  aclrtEvent ipc = nullptr, timed = nullptr;
  ACL_ASSERT_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
  ACL_ASSERT_OK(aclrtCreateEvent(&timed));
  ACL_ASSERT_OK(aclrtRecordEvent(ipc, stream));
  ACL_ASSERT_OK(aclrtRecordEvent(timed, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  float ms = 0.0f;
  ACL_EXPECT_ERROR(aclrtEventElapsedTime(&ms, ipc, timed), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtEventElapsedTime");
  ACL_EXPECT_ERROR(aclrtEventElapsedTime(&ms, timed, ipc), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtEventElapsedTime");
  ACL_EXPECT_OK(aclrtDestroyEvent(ipc));
  ACL_EXPECT_OK(aclrtDestroyEvent(timed));
  // The same flags through aclrtCreateEventWithFlag: both calls are fine.
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC));
  ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
  ACL_EXPECT_OK(aclrtResetEvent(event, stream));
  aclrtEventStatus status = ACL_EVENT_STATUS_NOT_READY;
  ACL_EXPECT_OK(aclrtQueryEvent(event, &status));
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
}

}  // namespace
