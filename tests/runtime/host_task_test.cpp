// Host tasks (canopyLaunchHostTask, src/runtime/host_task.h): compute tasks
// that run on a host thread in stream order, their status the stream's, and
// that a thread synchronising the stream may run itself.
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "canopy/canopy_runtime.h"
#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

// Appends its id to a shared log and records where it ran.
struct Step {
  std::vector<int>* log = nullptr;
  std::atomic<int>* next = nullptr;  // the log's length, read by the steps
  int id = 0;
  int32_t status = ACL_SUCCESS;
  std::atomic<bool> ran{false};
  std::atomic<bool> on_engine{false};
  std::thread::id thread;
  std::atomic<int> released{0};

  static int32_t Run(void* self) {
    auto* step = static_cast<Step*>(self);
    step->on_engine.store(canopyOnEngineThread() != 0);
    step->thread = std::this_thread::get_id();
    step->log->push_back(step->id);
    step->next->fetch_add(1);
    step->ran.store(true);
    if (step->status != ACL_SUCCESS) canopySetRecentErrMsg("the step was told to fail");
    return step->status;
  }
  static void Release(void* self) { static_cast<Step*>(self)->released.fetch_add(1); }
};

// A host task that waits until the test opens it (bounded, so a test that
// never does fails instead of hanging).
struct Gate {
  std::atomic<bool> entered{false};
  std::atomic<bool> open{false};
  static int32_t Run(void* self) {
    auto* gate = static_cast<Gate*>(self);
    gate->entered.store(true);
    return WaitUntil([&] { return gate->open.load(); }) ? ACL_SUCCESS : ACL_ERROR_RT_INTERNAL_ERROR;
  }
};

int32_t CountOnEngine(void* counter) {
  static_cast<std::atomic<int>*>(counter)->fetch_add(1);
  return ACL_SUCCESS;
}

TEST(HostTask, RunsOffTheEngineInStreamOrderAndIsReleasedOnce) {
  ScopedStream stream;
  std::vector<int> log;
  std::atomic<int> next{0};
  Step steps[4];
  for (int i = 0; i < 4; ++i) {
    steps[i].log = &log;
    steps[i].next = &next;
    steps[i].id = i;
  }
  // An engine task, a host task, an engine task, a host task: in this order.
  ACL_ASSERT_OK(canopyLaunchTask(stream, "engine 0", Step::Run, Step::Release, &steps[0]));
  ACL_ASSERT_OK(canopyLaunchHostTask(stream, "host 1", Step::Run, Step::Release, &steps[1]));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "engine 2", Step::Run, Step::Release, &steps[2]));
  ACL_ASSERT_OK(canopyLaunchHostTask(stream, "host 3", Step::Run, Step::Release, &steps[3]));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(log, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(steps[0].on_engine.load());
  EXPECT_FALSE(steps[1].on_engine.load());
  EXPECT_TRUE(steps[2].on_engine.load());
  EXPECT_FALSE(steps[3].on_engine.load());
  for (const Step& step : steps) EXPECT_EQ(step.released.load(), 1);
}

// On an idle stream the task starts from the enqueue; whichever thread runs
// it (a callback thread, or this one in the synchronisation), it has run and
// been released once when the synchronisation returns. Many times over, so
// that both threads win some races.
TEST(HostTask, StartedOnAnIdleStreamRunsOnceWhoeverClaimsIt) {
  ScopedStream stream;
  std::vector<int> log;
  std::atomic<int> next{0};
  int here = 0;  // rounds this thread ran itself
  for (int round = 0; round < 300; ++round) {
    Step step;
    step.log = &log;
    step.next = &next;
    step.id = round;
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "host", Step::Run, Step::Release, &step));
    if (round % 3 == 1) std::this_thread::yield();  // sometimes let a callback thread take it first
    ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
    ASSERT_TRUE(step.ran.load());
    ASSERT_EQ(step.released.load(), 1);
    ASSERT_FALSE(step.on_engine.load());
    if (step.thread == std::this_thread::get_id()) ++here;
  }
  EXPECT_EQ(next.load(), 300);
  // A callback thread needs a wake-up to start, this thread is already there:
  // it runs most of them (all but none would mean the synchronisation never claims).
  EXPECT_GT(here, 0);
}

// A host task that waits never holds the device's engine: another stream of
// the same device runs its work meanwhile.
TEST(HostTask, AWaitingHostTaskLeavesTheEngineToOtherStreams) {
  ScopedStream waiting, other;
  Gate gate;
  ACL_ASSERT_OK(canopyLaunchHostTask(waiting, "gate", Gate::Run, nullptr, &gate));
  ASSERT_TRUE(WaitUntil([&] { return gate.entered.load(); }));
  std::atomic<int> counter{0};
  for (int i = 0; i < 8; ++i) ACL_ASSERT_OK(canopyLaunchTask(other, "count", CountOnEngine, nullptr, &counter));
  ACL_ASSERT_OK(aclrtSynchronizeStream(other));
  EXPECT_EQ(counter.load(), 8);
  // Work queued behind the gate waits for it.
  std::atomic<int> behind{0};
  ACL_ASSERT_OK(canopyLaunchTask(waiting, "count", CountOnEngine, nullptr, &behind));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(behind.load(), 0);
  gate.open.store(true);
  ACL_ASSERT_OK(aclrtSynchronizeStream(waiting));
  EXPECT_EQ(behind.load(), 1);
}

// Its failure is the stream's, reported at the next synchronisation with the
// task's message; the synchronising thread's own recent message is not
// overwritten when the task succeeds on it.
TEST(HostTask, AFailureIsTheStreamsAndSuccessLeavesTheCallersMessage) {
  ScopedStream stream;
  std::vector<int> log;
  std::atomic<int> next{0};
  Step failing;
  failing.log = &log;
  failing.next = &next;
  failing.status = ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
  ACL_ASSERT_OK(canopyLaunchHostTask(stream, "told to fail", Step::Run, Step::Release, &failing));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_SUSPECT_REMOTE_ERROR);
  const std::string message = RecentMessage();
  EXPECT_NE(message.find("told to fail"), std::string::npos) << message;
  EXPECT_NE(message.find("the step was told to fail"), std::string::npos) << message;
  EXPECT_EQ(failing.released.load(), 1);
  // Reported once; the stream goes on.
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));

  EXPECT_EQ(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);  // a recent message of this thread's own
  const std::string own = RecentMessage();
  ASSERT_FALSE(own.empty());
  EXPECT_EQ(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
  Step fine;
  fine.log = &log;
  fine.next = &next;
  ACL_ASSERT_OK(canopyLaunchHostTask(stream, "fine", Step::Run, Step::Release, &fine));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(RecentMessage(), own);
}

// Waits other than a stream synchronisation (an event, a timed one) leave it
// to a callback thread, which runs it.
TEST(HostTask, AnEventAfterItCompletesWithoutAStreamSynchronisation) {
  ScopedStream stream;
  std::vector<int> log;
  std::atomic<int> next{0};
  Step step;
  step.log = &log;
  step.next = &next;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  ACL_ASSERT_OK(canopyLaunchHostTask(stream, "host", Step::Run, Step::Release, &step));
  ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
  ACL_ASSERT_OK(aclrtSynchronizeEvent(event));
  EXPECT_TRUE(step.ran.load());
  Step timed;
  timed.log = &log;
  timed.next = &next;
  ACL_ASSERT_OK(canopyLaunchHostTask(stream, "host", Step::Run, Step::Release, &timed));
  ACL_ASSERT_OK(aclrtSynchronizeStreamWithTimeout(stream, 30000));
  EXPECT_TRUE(timed.ran.load());
  EXPECT_EQ(timed.released.load(), 1);
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
}

// A stream destroyed right after a host task was queued on it runs the task
// first (destruction drains), and one queued behind a gate as well.
TEST(HostTask, DestroyingTheStreamRunsWhatIsQueued) {
  for (int round = 0; round < 50; ++round) {
    aclrtStream stream = nullptr;
    ACL_ASSERT_OK(aclrtCreateStream(&stream));
    std::vector<int> log;
    std::atomic<int> next{0};
    Step first, second;
    first.log = second.log = &log;
    first.next = second.next = &next;
    Gate gate;
    gate.open.store(round % 2 == 0);
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "gate", Gate::Run, nullptr, &gate));
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "first", Step::Run, Step::Release, &first));
    ACL_ASSERT_OK(canopyLaunchTask(stream, "second", Step::Run, Step::Release, &second));
    std::thread opener([&gate] { gate.open.store(true); });
    ACL_ASSERT_OK(aclrtDestroyStream(stream));
    opener.join();
    ASSERT_EQ(first.released.load(), 1);
    ASSERT_EQ(second.released.load(), 1);
    ASSERT_EQ(next.load(), 2);
  }
}

// Captured, it runs once per replay.
TEST(HostTask, ACapturedHostTaskRunsOncePerReplay) {
  ScopedStream capture, replay;
  std::vector<int> log;
  std::atomic<int> next{0};
  Step step;
  step.log = &log;
  step.next = &next;
  ACL_ASSERT_OK(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_ASSERT_OK(canopyLaunchHostTask(capture, "captured", Step::Run, Step::Release, &step));
  aclmdlRI model = nullptr;
  ACL_ASSERT_OK(aclmdlRICaptureEnd(capture, &model));
  EXPECT_EQ(next.load(), 0);
  for (int i = 0; i < 3; ++i) ACL_ASSERT_OK(aclmdlRIExecuteAsync(model, replay));
  ACL_ASSERT_OK(aclrtSynchronizeStream(replay));
  EXPECT_EQ(next.load(), 3);
  EXPECT_FALSE(step.on_engine.load());
  ACL_EXPECT_OK(aclmdlRIDestroy(model));
  EXPECT_EQ(step.released.load(), 1);
}

TEST(HostTask, ANullFunctionIsRejected) {
  ScopedStream stream;
  EXPECT_EQ(canopyLaunchHostTask(stream, "none", nullptr, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
