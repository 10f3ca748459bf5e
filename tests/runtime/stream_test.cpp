// Streams: in-order execution, independence of streams, cross-stream waits,
// synchronisation with and without timeouts, failures inside queued work, and
// destruction with work still queued.
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

TEST(Stream, CreateAndDestroyChecks) {
  ACL_EXPECT_ERROR(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtCreateStream");
  ACL_EXPECT_ERROR(aclrtCreateStreamWithConfig(nullptr, 0, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig");
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStreamWithConfig(&stream, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
  uint32_t priority = 99, flags = 0;
  ACL_EXPECT_OK(aclrtStreamGetPriority(stream, &priority));
  EXPECT_EQ(priority, 3u);
  ACL_EXPECT_OK(aclrtStreamGetFlags(stream, &flags));
  EXPECT_EQ(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
  ACL_ASSERT_OK(aclrtDestroyStream(stream));
  ACL_EXPECT_ERROR(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream");  // twice
  ACL_EXPECT_ERROR(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream");
  int not_a_stream = 0;
  ACL_EXPECT_ERROR(aclrtDestroyStream(&not_a_stream), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream");
  ACL_EXPECT_ERROR(aclrtSynchronizeStream(&not_a_stream), ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream");
  aclrtStreamStatus status;
  ACL_EXPECT_ERROR(aclrtStreamQuery(stream, &status), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery");
  ACL_EXPECT_ERROR(aclrtStreamQuery(nullptr, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery");
  ACL_EXPECT_ERROR(aclrtLaunchHostFunc(stream, IncrementCounter, nullptr), ACL_ERROR_INVALID_PARAM,
                   "aclrtLaunchHostFunc");
  // Priorities past the lowest are clamped, as CANN does.
  ACL_ASSERT_OK(aclrtCreateStreamWithConfig(&stream, 100, 0));
  ACL_EXPECT_OK(aclrtStreamGetPriority(stream, &priority));
  EXPECT_EQ(priority, 7u);
  ACL_EXPECT_OK(aclrtDestroyStream(stream));
  int32_t least = -1, greatest = -1;
  ACL_EXPECT_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_EQ(least, 7);
  EXPECT_EQ(greatest, 0);
}

// Appends its index to a vector that only the engine touches while the stream runs.
struct Sequence {
  std::vector<int> seen;
};
struct SequenceStep {
  Sequence* sequence;
  int index;
};
int32_t AppendIndex(void* step) {
  auto* s = static_cast<SequenceStep*>(step);
  s->sequence->seen.push_back(s->index);
  return 0;
}
void AppendIndexHost(void* step) { AppendIndex(step); }

TEST(Stream, RunsTasksInOrder) {
  constexpr int kTasks = 3000;
  Sequence sequence;
  std::vector<SequenceStep> steps(kTasks);
  ScopedStream stream;
  for (int i = 0; i < kTasks; ++i) {
    steps[i] = {&sequence, i};
    // Mix compute tasks and host functions: both keep their place in the stream.
    if (i % 100 == 50) {
      ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, AppendIndexHost, &steps[i]));
    } else {
      ACL_ASSERT_OK(canopyLaunchTask(stream, "append", AppendIndex, nullptr, &steps[i]));
    }
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  ASSERT_EQ(sequence.seen.size(), static_cast<size_t>(kTasks));
  for (int i = 0; i < kTasks; ++i) ASSERT_EQ(sequence.seen[i], i);
}

TEST(Stream, DefaultStreamIsNull) {
  std::atomic<int> counter{0};
  for (int i = 0; i < 10; ++i)
    ACL_ASSERT_OK(canopyLaunchTask(nullptr, "count", IncrementCounterTask, nullptr, &counter));
  ACL_ASSERT_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(counter.load(), 10);
  aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
  ACL_ASSERT_OK(aclrtStreamQuery(nullptr, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST(Stream, BlockedStreamDoesNotHoldUpAnother) {
  ScopedStream blocked, free_running;
  std::atomic<int> counter{0};
  {
    StreamBlocker blocker(blocked);
    ASSERT_TRUE(blocker.WaitEntered());
    ACL_ASSERT_OK(canopyLaunchTask(blocked, "count", IncrementCounterTask, nullptr, &counter));
    for (int i = 0; i < 100; ++i) {
      ACL_ASSERT_OK(canopyLaunchTask(free_running, "count", IncrementCounterTask, nullptr, &counter));
      ACL_ASSERT_OK(aclrtLaunchHostFunc(free_running, IncrementCounter, &counter));
    }
    ACL_ASSERT_OK(aclrtSynchronizeStream(free_running));
    EXPECT_EQ(counter.load(), 200);  // the blocked stream's task has not run
    EXPECT_FALSE(blocker.left());
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(blocked));
  EXPECT_EQ(counter.load(), 201);
}

struct BusyProgress {
  std::atomic<int> long_done{0};
  std::atomic<int> long_done_when_short_ran{-1};
};
int32_t LongStreamTask(void* arg) {
  static_cast<BusyProgress*>(arg)->long_done.fetch_add(1);
  return 0;
}
int32_t ShortStreamTask(void* arg) {
  auto* progress = static_cast<BusyProgress*>(arg);
  progress->long_done_when_short_ran.store(progress->long_done.load());
  return 0;
}

TEST(Stream, BusyStreamDoesNotStarveAnother) {
  // The engine takes one task per stream in turn: a short stream's task runs
  // long before a long queue on another stream is done.
  constexpr int kLongTasks = 2000;
  ScopedStream long_stream, short_stream;
  BusyProgress progress;
  {
    StreamBlocker blocker(long_stream);
    for (int i = 0; i < kLongTasks; ++i) {
      ACL_ASSERT_OK(canopyLaunchTask(long_stream, "long", LongStreamTask, nullptr, &progress));
    }
    ACL_ASSERT_OK(canopyLaunchTask(short_stream, "short", ShortStreamTask, nullptr, &progress));
    ACL_ASSERT_OK(aclrtSynchronizeStream(short_stream));
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(long_stream));
  EXPECT_EQ(progress.long_done.load(), kLongTasks);
  EXPECT_GE(progress.long_done_when_short_ran.load(), 0);
  EXPECT_LT(progress.long_done_when_short_ran.load(), kLongTasks / 2);
}

struct Order {
  std::mutex mutex;
  std::vector<std::string> steps;
  void Add(const std::string& step) {
    std::lock_guard lock(mutex);
    steps.push_back(step);
  }
};
struct Named {
  Order* order;
  const char* name;
};
void AddStep(void* named) {
  auto* n = static_cast<Named*>(named);
  n->order->Add(n->name);
}

TEST(Stream, WaitEventOrdersWorkAcrossStreams) {
  ScopedStream producer, consumer;
  aclrtEvent ready = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&ready));
  Order order;
  Named produce{&order, "produce"}, consume{&order, "consume"};
  {
    StreamBlocker blocker(producer);
    ACL_ASSERT_OK(aclrtLaunchHostFunc(producer, AddStep, &produce));
    ACL_ASSERT_OK(aclrtRecordEvent(ready, producer));
    ACL_ASSERT_OK(aclrtStreamWaitEvent(consumer, ready));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(consumer, AddStep, &consume));
    ASSERT_TRUE(blocker.WaitEntered());
    // The consumer cannot pass the wait while the producer is held.
    ACL_EXPECT_ERROR(aclrtSynchronizeStreamWithTimeout(consumer, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                     "aclrtSynchronizeStreamWithTimeout");
    EXPECT_TRUE(order.steps.empty());
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(consumer));
  EXPECT_EQ(order.steps, (std::vector<std::string>{"produce", "consume"}));
  // A wait on an event that was never recorded does not block.
  aclrtEvent never = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&never));
  ACL_ASSERT_OK(aclrtStreamWaitEvent(consumer, never));
  ACL_ASSERT_OK(aclrtSynchronizeStream(consumer));
  // A stream whose last task is a satisfied wait still finishes synchronising.
  {
    StreamBlocker blocker(producer);
    ACL_ASSERT_OK(aclrtRecordEvent(ready, producer));
    ACL_ASSERT_OK(aclrtStreamWaitEvent(consumer, ready));
    std::thread release([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      blocker.Release();
    });
    ACL_EXPECT_OK(aclrtSynchronizeStream(consumer));
    release.join();
  }
  ACL_EXPECT_ERROR(aclrtStreamWaitEvent(consumer, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtStreamWaitEvent");
  ACL_EXPECT_OK(aclrtDestroyEvent(ready));
  ACL_EXPECT_OK(aclrtDestroyEvent(never));
}

TEST(Stream, SynchronizeWithTimeout) {
  ScopedStream stream;
  {
    StreamBlocker blocker(stream);
    ACL_EXPECT_ERROR(aclrtSynchronizeStreamWithTimeout(stream, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                     "aclrtSynchronizeStreamWithTimeout");
    aclrtStreamStatus status;
    ACL_ASSERT_OK(aclrtStreamQuery(stream, &status));
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  }
  ACL_EXPECT_OK(aclrtSynchronizeStreamWithTimeout(stream, -1));
  ACL_EXPECT_OK(aclrtSynchronizeStreamWithTimeout(stream, 1000));
  aclrtStreamStatus status;
  ACL_ASSERT_OK(aclrtStreamQuery(stream, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  ACL_EXPECT_ERROR(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSynchronizeStreamWithTimeout");
  ACL_EXPECT_ERROR(aclrtSynchronizeStreamWithTimeout(stream, -2), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtSynchronizeStreamWithTimeout");
}

struct FailureLog {
  std::atomic<int> ran_after{0};
  std::atomic<int> released{0};
};
int32_t FailWithMessage(void*) {
  canopySetRecentErrMsg("kernel 'scale': index 17 is out of range [0, 16)");
  return ACL_ERROR_RT_AICORE_EXCEPTION;
}
int32_t FailSilently(void*) { return ACL_ERROR_RT_INTERNAL_ERROR; }
int32_t CountAfterFailure(void* log) {
  static_cast<FailureLog*>(log)->ran_after.fetch_add(1);
  return 0;
}
void CountRelease(void* log) { static_cast<FailureLog*>(log)->released.fetch_add(1); }
// Slow enough that a synchronisation which does not wait for the releases
// (they may run in the stream's destructor on the engine thread) is caught.
void CountReleaseSlowly(void* log) {
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CountRelease(log);
}

TEST(Stream, FailureInQueuedWorkIsReportedAtTheNextSynchronisation) {
  ScopedStream stream;
  FailureLog log;
  ACL_ASSERT_OK(canopyLaunchTask(stream, "scale", FailWithMessage, CountRelease, &log));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "after", CountAfterFailure, CountRelease, &log));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "second failure", FailSilently, CountRelease, &log));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string message = RecentMessage();
  EXPECT_NE(message.find("aclrtSynchronizeStream"), std::string::npos) << message;
  EXPECT_NE(message.find("scale"), std::string::npos) << message;
  EXPECT_NE(message.find("index 17 is out of range"), std::string::npos) << message;
  EXPECT_EQ(log.ran_after.load(), 1);
  EXPECT_EQ(log.released.load(), 3);  // every release callback ran exactly once
  // Reported once; the stream stays usable.
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "after", CountAfterFailure, nullptr, &log));
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(log.ran_after.load(), 2);

  // A failure without a message still names the task; aclrtSynchronizeDevice reports it too.
  ACL_ASSERT_OK(canopyLaunchTask(stream, "silent", FailSilently, nullptr, &log));
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_NE(RecentMessage().find("silent"), std::string::npos);
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
  // Internal waits (querying, destroying another stream) do not swallow it.
  ACL_ASSERT_OK(canopyLaunchTask(stream, "kept", FailSilently, nullptr, &log));
  aclrtStreamStatus status;
  ASSERT_TRUE(WaitUntil(
      [&] { return aclrtStreamQuery(stream, &status) == ACL_SUCCESS && status == ACL_STREAM_STATUS_COMPLETE; }));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 1000), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_NE(RecentMessage().find("kept"), std::string::npos);
}

TEST(Stream, LaunchTaskChecks) {
  ACL_EXPECT_ERROR(canopyLaunchTask(nullptr, "x", nullptr, nullptr, nullptr), ACL_ERROR_INVALID_PARAM,
                   "canopyLaunchTask");
  int not_a_stream = 0;
  FailureLog log;
  ACL_EXPECT_ERROR(canopyLaunchTask(&not_a_stream, "x", CountAfterFailure, CountRelease, &log), ACL_ERROR_INVALID_PARAM,
                   "canopyLaunchTask");
  EXPECT_EQ(log.released.load(), 0);  // a task that was not queued is still the caller's
  ACL_EXPECT_ERROR(aclrtLaunchHostFunc(nullptr, nullptr, nullptr), ACL_ERROR_INVALID_PARAM, "aclrtLaunchHostFunc");
}

struct EngineCheck {
  std::atomic<int> on_engine{-1};
  std::atomic<int> sync_status{0};
  aclrtStream stream = nullptr;
};
int32_t SynchronizeFromTask(void* arg) {
  auto* check = static_cast<EngineCheck*>(arg);
  check->on_engine.store(canopyOnEngineThread());
  check->sync_status.store(aclrtSynchronizeStream(check->stream));
  return 0;
}
void SynchronizeFromHostFunction(void* arg) {
  auto* check = static_cast<EngineCheck*>(arg);
  check->on_engine.store(canopyOnEngineThread());
  check->sync_status.store(aclrtSynchronizeStream(check->stream));
}

TEST(Stream, WaitingForYourOwnStreamFromInsideIsRefused) {
  ScopedStream stream;
  EngineCheck check;
  check.stream = stream;
  ACL_ASSERT_OK(canopyLaunchTask(stream, "sync inside", SynchronizeFromTask, nullptr, &check));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));  // no deadlock
  EXPECT_EQ(check.on_engine.load(), 1);
  EXPECT_NE(check.sync_status.load(), ACL_SUCCESS);
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, SynchronizeFromHostFunction, &check));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(check.on_engine.load(), 0);  // host functions run on callback threads
  EXPECT_NE(check.sync_status.load(), ACL_SUCCESS);
  EXPECT_EQ(canopyOnEngineThread(), 0);
}

struct SlowCount {
  std::atomic<int> done{0};
};
void SleepAndCount(void* arg) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  static_cast<SlowCount*>(arg)->done.fetch_add(1);
}

TEST(Stream, DestroyWaitsForPendingWork) {
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  SlowCount count;
  std::atomic<int> tasks{0};
  for (int i = 0; i < 20; ++i) {
    ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, SleepAndCount, &count));
    ACL_ASSERT_OK(canopyLaunchTask(stream, "count", IncrementCounterTask, nullptr, &tasks));
  }
  ACL_ASSERT_OK(aclrtDestroyStream(stream));
  EXPECT_EQ(count.done.load(), 20);
  EXPECT_EQ(tasks.load(), 20);
  // Destroying from another thread while the stream is held: it returns once released.
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  std::atomic<bool> destroyed{false};
  {
    StreamBlocker blocker(stream);
    ACL_ASSERT_OK(canopyLaunchTask(stream, "count", IncrementCounterTask, nullptr, &tasks));
    aclrtContext context = nullptr;
    ACL_ASSERT_OK(aclrtGetCurrentContext(&context));
    std::thread destroyer([&] {
      ACL_EXPECT_OK(aclrtSetCurrentContext(context));
      ACL_EXPECT_OK(aclrtDestroyStream(stream));
      destroyed.store(true);
    });
    ASSERT_TRUE(blocker.WaitEntered());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_FALSE(destroyed.load());
    // While it is being destroyed the handle no longer takes work.
    ASSERT_TRUE(WaitUntil([&] {
      aclrtStreamStatus status;
      return aclrtStreamQuery(stream, &status) != ACL_SUCCESS;
    }));
    blocker.Release();
    destroyer.join();
  }
  EXPECT_TRUE(destroyed.load());
  EXPECT_EQ(tasks.load(), 21);
}

TEST(Stream, DestroyForceDropsWorkThatHasNotStarted) {
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  FailureLog log;
  {
    StreamBlocker blocker(stream);
    ASSERT_TRUE(blocker.WaitEntered());
    for (int i = 0; i < 10; ++i) {
      ACL_ASSERT_OK(canopyLaunchTask(stream, "dropped", CountAfterFailure, CountReleaseSlowly, &log));
    }
    ACL_ASSERT_OK(aclrtDestroyStreamForce(stream));
    EXPECT_FALSE(blocker.left());  // it did not wait for the running host function
  }
  // The host function has been let go but may still be returning: a device
  // synchronisation covers force-destroyed streams and what they dropped.
  ACL_ASSERT_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(log.ran_after.load(), 0);
  EXPECT_EQ(log.released.load(), 10);  // dropped tasks still release what they own
}

TEST(Stream, DefaultStreamCannotBeDestroyed) {
  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&context));
  ACL_EXPECT_ERROR(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream");
  ACL_EXPECT_ERROR(aclrtDestroyStreamForce(nullptr), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamForce");
}

}  // namespace
