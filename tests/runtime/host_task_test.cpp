// Host tasks (canopyLaunchHostTask, src/runtime/host_task.h): compute tasks
// that run on a host thread in stream order, their status the stream's, and
// that a thread synchronising the stream may run itself.
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
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
  // 300 rounds, and more (up to 5000) until this thread has run one: under a
  // loaded machine a callback thread can win many rounds in a row.
  int rounds = 0;
  for (int round = 0; round < 300 || (here == 0 && round < 5000); ++round, ++rounds) {
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
  EXPECT_EQ(next.load(), rounds);
  // A callback thread needs a wake-up to start, this thread is already there:
  // it runs most of them (none at all would mean the synchronisation never claims).
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

// ---- Attacks of an adversarial client (helper H3) ----------------------------

namespace {

// Counts its runs and releases and remembers where it ran.
struct Counted {
  std::atomic<int> runs{0};
  std::atomic<int> releases{0};
  std::atomic<bool> on_engine{false};
  std::atomic<bool> here{false};  // ran on the thread in `caller`
  std::thread::id caller;

  static int32_t Run(void* self) {
    auto* counted = static_cast<Counted*>(self);
    if (canopyOnEngineThread() != 0) counted->on_engine.store(true);
    if (std::this_thread::get_id() == counted->caller) counted->here.store(true);
    counted->runs.fetch_add(1);
    return ACL_SUCCESS;
  }
  static void Release(void* self) { static_cast<Counted*>(self)->releases.fetch_add(1); }
};

// Starts `count` threads at (nearly) the same moment and joins them.
template <typename Body>
void RunTogether(int count, Body body) {
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < count; ++i) {
    threads.emplace_back([&, i] {
      ready.fetch_add(1);
      while (ready.load() < count) std::this_thread::yield();
      body(i);
    });
  }
  for (auto& thread : threads) thread.join();
}

// Several threads synchronise one stream at once, in every way there is, while
// a started host task and one queued behind it wait: each task runs and is
// released exactly once, and no waiter returns before both have run.
TEST(HostTaskAttack, SynchronisersRacingForOneStreamRunEachTaskOnceAndAllReturnAfterIt) {
  ScopedStream stream;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  for (int round = 0; round < 60; ++round) {
    Counted first, second;
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "first", Counted::Run, Counted::Release, &first));
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "second", Counted::Run, Counted::Release, &second));
    ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
    std::atomic<int> early{0}, failed{0};
    RunTogether(5, [&](int who) {
      aclError status = ACL_SUCCESS;
      if (who <= 1) {
        status = aclrtSynchronizeStream(stream);
      } else if (who == 2) {
        status = aclrtSynchronizeStreamWithTimeout(stream, 30000);
      } else if (who == 3) {
        status = aclrtSynchronizeEvent(event);
      } else {
        aclrtStreamStatus state = ACL_STREAM_STATUS_NOT_READY;
        while (status == ACL_SUCCESS && state != ACL_STREAM_STATUS_COMPLETE) {
          status = aclrtStreamQuery(stream, &state);
          std::this_thread::yield();
        }
      }
      if (status != ACL_SUCCESS) failed.fetch_add(1);
      if (first.runs.load() != 1 || second.runs.load() != 1) early.fetch_add(1);
    });
    ASSERT_EQ(failed.load(), 0) << "round " << round;
    ASSERT_EQ(early.load(), 0) << "round " << round << ": a wait returned before the tasks ran";
    // The releases follow the runs on the same thread, before the stream moves on.
    ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
    ASSERT_EQ(first.runs.load(), 1);
    ASSERT_EQ(second.runs.load(), 1);
    ASSERT_EQ(first.releases.load(), 1);
    ASSERT_EQ(second.releases.load(), 1);
  }
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
}

// A host task run by a synchronising thread leaves that thread as it found it:
// its current context (the task switched to another device's) and its last
// error code (the task made a call fail). On a callback thread neither would
// reach the client; run in the client's synchronisation they must not either.
struct ThreadStateChanger {
  aclrtContext other = nullptr;
  std::thread::id caller;
  std::atomic<bool> here{false};
  std::atomic<int> runs{0};
  static int32_t Run(void* self) {
    auto* changer = static_cast<ThreadStateChanger*>(self);
    if (std::this_thread::get_id() == changer->caller) changer->here.store(true);
    changer->runs.fetch_add(1);
    if (aclrtSetCurrentContext(changer->other) != ACL_SUCCESS) return ACL_ERROR_RT_INTERNAL_ERROR;
    if (aclrtSetDevice(7) == ACL_SUCCESS) return ACL_ERROR_RT_INTERNAL_ERROR;  // fails: sets the last error
    return ACL_SUCCESS;
  }
};

TEST(HostTaskAttack, RunOnTheSynchronisingThreadItKeepsThatThreadsContextAndLastError) {
  aclrtContext own = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&own));
  aclrtContext other = nullptr;
  ACL_ASSERT_OK(aclrtCreateContext(&other, 1));  // makes it current too
  ACL_ASSERT_OK(aclrtSetCurrentContext(own));
  ScopedStream stream;
  int inline_runs = 0;
  // A callback thread woken by the enqueue sometimes wins every race on a
  // loaded machine: try until the synchronisation has run it itself a few times.
  for (int round = 0; round < 3000 && inline_runs < 10; ++round) {
    ThreadStateChanger changer;
    changer.other = other;
    changer.caller = std::this_thread::get_id();
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);  // start clean
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "changer", ThreadStateChanger::Run, nullptr, &changer));
    ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
    ASSERT_EQ(changer.runs.load(), 1);
    if (!changer.here.load()) continue;
    ++inline_runs;
    ASSERT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS)
        << "round " << round << ": the task's failed call set the caller's last error";
    aclrtContext now = nullptr;
    ACL_ASSERT_OK(aclrtGetCurrentContext(&now));
    ASSERT_EQ(now, own) << "round " << round << ": the task's aclrtSetCurrentContext reached the caller";
    int32_t device = -1;
    ACL_ASSERT_OK(aclrtGetDevice(&device));
    ASSERT_EQ(device, 0);
  }
  ACL_EXPECT_OK(aclrtDestroyContext(other));
  ACL_EXPECT_OK(aclrtSetCurrentContext(own));
  if (inline_runs == 0) GTEST_SKIP() << "a callback thread won every race: nothing ran on this thread";
}

// A task on one device's engine that synchronises another device's stream
// waits there; the other stream's host task still runs on a host thread, never
// on the engine (it would hold up every stream of the first device).
struct SyncOther {
  aclrtStream other = nullptr;
  std::atomic<aclError> status{ACL_SUCCESS};
  std::string message;
  static int32_t Run(void* self) {
    auto* sync = static_cast<SyncOther*>(self);
    sync->status.store(aclrtSynchronizeStream(sync->other));
    sync->message = RecentMessage();
    return ACL_SUCCESS;
  }
};

TEST(HostTaskAttack, AnEngineTaskSynchronisingAnotherDevicesStreamNeverRunsItsHostTask) {
  ScopedStream here;
  aclrtStream there = nullptr;
  ACL_ASSERT_OK(aclrtSetDevice(1));
  ACL_ASSERT_OK(aclrtCreateStream(&there));
  ACL_ASSERT_OK(aclrtSetDevice(0));
  for (int round = 0; round < 60; ++round) {
    Counted task;
    SyncOther sync;
    sync.other = there;
    ACL_ASSERT_OK(canopyLaunchHostTask(there, "other device", Counted::Run, Counted::Release, &task));
    ACL_ASSERT_OK(canopyLaunchTask(here, "synchronise", SyncOther::Run, nullptr, &sync));
    ACL_ASSERT_OK(aclrtSynchronizeStream(here));
    ASSERT_EQ(sync.status.load(), ACL_SUCCESS) << sync.message;
    ASSERT_EQ(task.runs.load(), 1);
    ASSERT_EQ(task.releases.load(), 1);
    ASSERT_FALSE(task.on_engine.load()) << "round " << round << ": the host task ran on device 0's engine";
  }
  ACL_EXPECT_OK(aclrtDestroyStream(there));
  ACL_EXPECT_OK(aclrtResetDevice(1));  // the reference aclrtSetDevice(1) took
  ACL_EXPECT_OK(aclrtSetDevice(0));
}

// A host task (or host function) of one stream synchronises another stream
// whose host task is waiting: it runs there, nested, once; a host task that
// synchronises its own stream is refused, wherever it runs.
struct Nested {
  aclrtStream other = nullptr;
  aclrtStream own = nullptr;
  std::atomic<aclError> other_status{-1};
  std::atomic<aclError> own_status{-1};
  static int32_t Run(void* self) {
    auto* nested = static_cast<Nested*>(self);
    nested->other_status.store(aclrtSynchronizeStream(nested->other));
    nested->own_status.store(aclrtSynchronizeStream(nested->own));
    return ACL_SUCCESS;
  }
  static void RunAsHostFunction(void* self) { Run(self); }
};

TEST(HostTaskAttack, SynchronisingAnotherStreamFromAHostTaskOrHostFunctionRunsItsTaskOnce) {
  ScopedStream outer, inner;
  for (int round = 0; round < 60; ++round) {
    Counted task;
    Nested nested;
    nested.other = inner;
    nested.own = outer;
    ACL_ASSERT_OK(canopyLaunchHostTask(inner, "inner", Counted::Run, Counted::Release, &task));
    if (round % 2 == 0) {
      ACL_ASSERT_OK(canopyLaunchHostTask(outer, "outer", Nested::Run, nullptr, &nested));
    } else {
      ACL_ASSERT_OK(aclrtLaunchHostFunc(outer, Nested::RunAsHostFunction, &nested));
    }
    ACL_ASSERT_OK(aclrtSynchronizeStream(outer));
    ACL_ASSERT_OK(nested.other_status.load());
    ASSERT_EQ(nested.own_status.load(), ACL_ERROR_RT_INTERNAL_ERROR) << "round " << round;
    ASSERT_EQ(task.runs.load(), 1);
    ASSERT_EQ(task.releases.load(), 1);
    (void)aclGetRecentErrMsg();
  }
}

// A host task that waits for a host function queued on another stream behind
// it, on a device whose synchronisation runs it: the synchronising thread runs
// the task, the host function runs on a callback thread, nothing deadlocks.
// Then the same with the order the other way round.
TEST(HostTaskAttack, TasksOfTwoStreamsWaitingForEachOtherWhileOneThreadSynchronisesTheDevice) {
  ScopedStream a, b;
  for (int round = 0; round < 40; ++round) {
    Gate gate;  // a host task on `a` that waits for the one on `b`
    Counted opener;
    ACL_ASSERT_OK(canopyLaunchHostTask(a, "waits for b", Gate::Run, nullptr, &gate));
    ACL_ASSERT_OK(canopyLaunchHostTask(
        b, "opens a",
        [](void* self) {
          static_cast<Gate*>(self)->open.store(true);
          return ACL_SUCCESS;
        },
        nullptr, &gate));
    ACL_ASSERT_OK(canopyLaunchHostTask(b, "after", Counted::Run, Counted::Release, &opener));
    ACL_ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_TRUE(gate.open.load());
    ASSERT_EQ(opener.runs.load(), 1);
    ASSERT_EQ(opener.releases.load(), 1);
  }
}

// Destroying what a started host task belongs to, while it is unclaimed,
// claimed by a callback thread or running in another thread's synchronisation:
// the task runs once, is released once, and the destruction returns after it.
TEST(HostTaskAttack, DestroyingTheStreamForceWhileATaskIsStartedRunsItOnce) {
  for (int round = 0; round < 60; ++round) {
    aclrtStream stream = nullptr;
    ACL_ASSERT_OK(aclrtCreateStream(&stream));
    Counted started, queued;
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "started", Counted::Run, Counted::Release, &started));
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "queued", Counted::Run, Counted::Release, &queued));
    std::thread synchroniser;
    if (round % 3 == 1) synchroniser = std::thread([stream] { (void)aclrtSynchronizeStream(stream); });
    ACL_ASSERT_OK(aclrtDestroyStreamForce(stream));
    ACL_ASSERT_OK(aclrtSynchronizeDevice());
    if (synchroniser.joinable()) synchroniser.join();
    // The started one always runs; the queued one may have been dropped, but is released once either way.
    ASSERT_EQ(started.runs.load(), 1) << "round " << round;
    ASSERT_EQ(started.releases.load(), 1) << "round " << round;
    ASSERT_LE(queued.runs.load(), 1);
    ASSERT_TRUE(WaitUntil([&] { return queued.releases.load() == 1; })) << "round " << round;
  }
}

TEST(HostTaskAttack, DestroyingAContextWhileAnotherThreadRunsItsStreamsTaskWaitsForIt) {
  aclrtContext own = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&own));
  for (int round = 0; round < 30; ++round) {
    aclrtContext context = nullptr;
    ACL_ASSERT_OK(aclrtCreateContext(&context, round % 2));
    aclrtStream stream = nullptr;
    ACL_ASSERT_OK(aclrtCreateStream(&stream));
    ACL_ASSERT_OK(aclrtSetCurrentContext(own));
    Gate gate;
    Counted behind;
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "gate", Gate::Run, nullptr, &gate));
    ACL_ASSERT_OK(canopyLaunchHostTask(stream, "behind", Counted::Run, Counted::Release, &behind));
    std::atomic<aclError> synchronised{-1};
    std::thread synchroniser([&] { synchronised.store(aclrtSynchronizeStream(stream)); });
    std::atomic<bool> destroyed{false};
    std::thread destroyer([&] {
      EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
      destroyed.store(true);
    });
    ASSERT_TRUE(gate.entered.load() || WaitUntil([&] { return gate.entered.load(); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_FALSE(destroyed.load()) << "the context went while its stream's task was running";
    gate.open.store(true);
    destroyer.join();
    synchroniser.join();
    // The synchronisation may have found the stream already gone (a stale handle), never anything else.
    ASSERT_TRUE(synchronised.load() == ACL_SUCCESS || synchronised.load() == ACL_ERROR_INVALID_PARAM)
        << synchronised.load();
    ASSERT_EQ(behind.runs.load(), 1);
    ASSERT_EQ(behind.releases.load(), 1);
    (void)aclGetRecentErrMsg();
  }
  ACL_EXPECT_OK(aclrtSetCurrentContext(own));
}

TEST(HostTaskAttack, ResettingADeviceWithStartedTasksOnItsStreamsRunsThemFirst) {
  for (int round = 0; round < 20; ++round) {
    ACL_ASSERT_OK(aclrtSetDevice(1));
    aclrtStream streams[3] = {};
    Counted tasks[3];
    Gate gate;
    gate.open.store(round % 2 == 0);
    for (int i = 0; i < 3; ++i) ACL_ASSERT_OK(aclrtCreateStream(&streams[i]));
    ACL_ASSERT_OK(canopyLaunchHostTask(streams[0], "gate", Gate::Run, nullptr, &gate));
    for (int i = 0; i < 3; ++i) {
      ACL_ASSERT_OK(canopyLaunchHostTask(streams[i], "task", Counted::Run, Counted::Release, &tasks[i]));
    }
    std::thread opener([&gate] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      gate.open.store(true);
    });
    std::thread synchroniser([&] { (void)aclrtSynchronizeStream(streams[1]); });
    ACL_ASSERT_OK(aclrtResetDevice(1));
    // The reset released the device (so it drained it): its streams are gone.
    EXPECT_EQ(aclrtSynchronizeStream(streams[2]), ACL_ERROR_INVALID_PARAM);
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(tasks[i].runs.load(), 1) << "round " << round << " stream " << i;
      ASSERT_EQ(tasks[i].releases.load(), 1) << "round " << round << " stream " << i;
    }
    opener.join();
    synchroniser.join();
    ACL_ASSERT_OK(aclrtSetDevice(0));
    (void)aclGetRecentErrMsg();
  }
}

// A host task that destroys its own stream, run by the thread synchronising
// that stream or by a callback thread: the plain destruction (which would wait
// for the task) is refused, the forced one drops what is queued behind it
// (each released once) and the synchronisation returns.
struct DestroysItsStream {
  aclrtStream stream = nullptr;
  std::atomic<aclError> plain{-1};
  std::atomic<aclError> forced{-1};
  std::atomic<bool> queued{false};  // the tasks meant to be dropped are queued behind it
  static int32_t Run(void* self) {
    auto* me = static_cast<DestroysItsStream*>(self);
    if (!WaitUntil([&] { return me->queued.load(); })) return ACL_ERROR_RT_INTERNAL_ERROR;
    me->plain.store(aclrtDestroyStream(me->stream));
    me->forced.store(aclrtDestroyStreamForce(me->stream));
    return ACL_SUCCESS;
  }
};

TEST(HostTaskAttack, AHostTaskForceDestroysItsOwnStreamWhileItsSynchronisationRunsIt) {
  for (int round = 0; round < 40; ++round) {
    DestroysItsStream self;
    ACL_ASSERT_OK(aclrtCreateStream(&self.stream));
    Counted behind[3];
    ACL_ASSERT_OK(canopyLaunchHostTask(self.stream, "destroys", DestroysItsStream::Run, nullptr, &self));
    for (Counted& task : behind) {
      ACL_ASSERT_OK(canopyLaunchHostTask(self.stream, "behind", Counted::Run, Counted::Release, &task));
    }
    self.queued.store(true);
    // The stream may be gone (a stale handle) by the time the call resolves it.
    const aclError synchronised = aclrtSynchronizeStream(self.stream);
    ASSERT_TRUE(synchronised == ACL_SUCCESS || synchronised == ACL_ERROR_INVALID_PARAM) << synchronised;
    ACL_ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(self.plain.load(), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_EQ(self.forced.load(), ACL_SUCCESS);
    for (Counted& task : behind) {
      ASSERT_EQ(task.runs.load(), 0) << "round " << round;
      // Released by the time aclrtSynchronizeDevice returns (a retired stream
      // whose last reference went between Runtime::RetiredStreamsOfDevice's
      // wait and its lock() was once neither waited for nor returned).
      ASSERT_EQ(task.releases.load(), 1) << "round " << round;
    }
    (void)aclGetRecentErrMsg();
  }
}

// Run in a child process: with the address space nearly full no callback
// thread can be started. A host task started from the enqueue (idle stream)
// and one the engine starts (behind a task) are then each the stream's error,
// not run, released once; with threads again the stream carries on.
[[noreturn]] void HostTasksWithoutThreads() {
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) _exit(10);
  std::atomic<int> counter{0};
  if (canopyLaunchTask(stream, "warm up", CountOnEngine, nullptr, &counter) != ACL_SUCCESS) _exit(11);
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) _exit(12);
  rlimit saved{};
  Counted idle, behind;
  if (!CapAddressSpace(&saved)) _exit(14);
  const aclError launched = canopyLaunchHostTask(stream, "idle", Counted::Run, Counted::Release, &idle);
  const aclError first = aclrtSynchronizeStream(stream);
  const std::string first_message = RecentMessage();
  const aclError queued = canopyLaunchTask(stream, "before", CountOnEngine, nullptr, &counter);
  const aclError launched_behind = canopyLaunchHostTask(stream, "behind", Counted::Run, Counted::Release, &behind);
  const aclError second = aclrtSynchronizeStream(stream);
  setrlimit(RLIMIT_AS, &saved);
  if (launched != ACL_SUCCESS || queued != ACL_SUCCESS || launched_behind != ACL_SUCCESS) _exit(15);
  if (first != ACL_ERROR_RT_RESOURCE_ALLOC_FAIL || second != ACL_ERROR_RT_RESOURCE_ALLOC_FAIL) _exit(16);
  if (first_message.find("canopyLaunchHostTask") == std::string::npos) _exit(17);
  if (idle.runs.load() != 0 || idle.releases.load() != 1) _exit(18);
  if (behind.runs.load() != 0 || behind.releases.load() != 1) _exit(19);
  if (counter.load() != 2) _exit(20);
  Counted after;
  if (canopyLaunchHostTask(stream, "after", Counted::Run, Counted::Release, &after) != ACL_SUCCESS) _exit(21);
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) _exit(22);
  if (after.runs.load() != 1 || after.releases.load() != 1) _exit(23);
  _exit(0);
}

TEST(HostTaskDeathTest, AHostTaskWhoseThreadCannotStartIsTheStreamsErrorNotAHang) {
  if (kSanitized) GTEST_SKIP() << "sanitizers reserve address space; the limit cannot be set";
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process, runtime started anew
  EXPECT_EXIT(HostTasksWithoutThreads(), ::testing::ExitedWithCode(0), "");
}

// A thread that captures a stream in the thread-local mode and synchronises
// another stream: that stream's host task, if run there, must not count as the
// capturing thread's own call (its synchronous copy refused, the capture
// invalidated), as it would not on a callback thread.
struct SynchronousCopy {
  std::thread::id caller;
  std::atomic<bool> here{false};
  std::atomic<aclError> status{-1};
  static int32_t Run(void* self) {
    auto* copy = static_cast<SynchronousCopy*>(self);
    if (std::this_thread::get_id() == copy->caller) copy->here.store(true);
    int from = 7, to = 0;
    copy->status.store(aclrtMemcpy(&to, sizeof(to), &from, sizeof(from), ACL_MEMCPY_HOST_TO_HOST));
    return ACL_SUCCESS;
  }
};

TEST(HostTaskAttack, RunOnAThreadCapturingAnotherStreamItIsNotThatThreadsCall) {
  ScopedStream capturing, other;
  int inline_runs = 0;
  for (int round = 0; round < 300 && inline_runs < 5; ++round) {
    ACL_ASSERT_OK(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    SynchronousCopy copy;
    copy.caller = std::this_thread::get_id();
    ACL_ASSERT_OK(canopyLaunchHostTask(other, "copies", SynchronousCopy::Run, nullptr, &copy));
    ACL_ASSERT_OK(aclrtSynchronizeStream(other));
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI captured = nullptr;
    ACL_ASSERT_OK(aclmdlRICaptureGetInfo(capturing, &status, &captured));
    aclmdlRI model = nullptr;
    const aclError ended = aclmdlRICaptureEnd(capturing, &model);
    if (model != nullptr) {
      ACL_EXPECT_OK(aclmdlRIDestroy(model));
    }
    (void)aclGetRecentErrMsg();
    if (copy.here.load()) ++inline_runs;
    ASSERT_EQ(copy.status.load(), ACL_SUCCESS) << "round " << round << (copy.here.load() ? " (run here)" : "");
    ASSERT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE) << "round " << round;
    ASSERT_EQ(ended, ACL_SUCCESS) << "round " << round;
  }
}

// Behind an event wait (the engine starts it), behind a failed task (it still
// runs; the failure is reported once), and in a model replayed on several
// streams by several threads at once.
TEST(HostTaskAttack, BehindAnEventWaitAndBehindAFailure) {
  ScopedStream producer, consumer;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  for (int round = 0; round < 40; ++round) {
    Gate gate;
    Counted task;
    ACL_ASSERT_OK(canopyLaunchHostTask(producer, "gate", Gate::Run, nullptr, &gate));
    ACL_ASSERT_OK(aclrtRecordEvent(event, producer));
    ACL_ASSERT_OK(aclrtStreamWaitEvent(consumer, event));
    ACL_ASSERT_OK(canopyLaunchHostTask(consumer, "behind the wait", Counted::Run, Counted::Release, &task));
    std::thread opener([&gate] { gate.open.store(true); });
    ACL_ASSERT_OK(aclrtSynchronizeStream(consumer));
    opener.join();
    ASSERT_EQ(task.runs.load(), 1);
    ASSERT_EQ(task.releases.load(), 1);
    ACL_ASSERT_OK(aclrtSynchronizeStream(producer));
  }
  ACL_EXPECT_OK(aclrtDestroyEvent(event));

  ScopedStream stream;
  Counted after;
  ACL_ASSERT_OK(canopyLaunchTask(
      stream, "fails", [](void*) { return static_cast<int32_t>(ACL_ERROR_RT_AICORE_EXCEPTION); }, nullptr, nullptr));
  ACL_ASSERT_OK(canopyLaunchHostTask(stream, "after the failure", Counted::Run, Counted::Release, &after));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(after.runs.load(), 1);
  EXPECT_EQ(after.releases.load(), 1);
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
}

TEST(HostTaskAttack, AModelReplayedOnSeveralStreamsAtOnceRunsItsHostTasksOncePerReplay) {
  ScopedStream capture;
  std::atomic<int> runs{0};
  const canopyTaskFn count = [](void* counter) {
    static_cast<std::atomic<int>*>(counter)->fetch_add(1);
    return static_cast<int32_t>(ACL_SUCCESS);
  };
  ACL_ASSERT_OK(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_ASSERT_OK(canopyLaunchHostTask(capture, "one", count, nullptr, &runs));
  ACL_ASSERT_OK(canopyLaunchTask(capture, "engine", count, nullptr, &runs));
  ACL_ASSERT_OK(canopyLaunchHostTask(capture, "two", count, nullptr, &runs));
  aclmdlRI model = nullptr;
  ACL_ASSERT_OK(aclmdlRICaptureEnd(capture, &model));
  constexpr int kThreads = 3;
  constexpr int kReplays = 10;
  std::atomic<int> failed{0};
  RunTogether(kThreads, [&](int) {
    aclrtStream stream = nullptr;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS) {
      failed.fetch_add(1);
      return;
    }
    for (int i = 0; i < kReplays; ++i) {
      if (aclmdlRIExecuteAsync(model, stream) != ACL_SUCCESS) failed.fetch_add(1);
      if (i % 3 == 0 && aclrtSynchronizeStream(stream) != ACL_SUCCESS) failed.fetch_add(1);
    }
    if (aclrtDestroyStream(stream) != ACL_SUCCESS) failed.fetch_add(1);
    (void)aclrtResetDevice(0);
  });
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(runs.load(), kThreads * kReplays * 3);
  ACL_EXPECT_OK(aclmdlRIDestroy(model));
}

}  // namespace
