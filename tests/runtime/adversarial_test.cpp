// Adversarial use of the runtime through its C API: teardown racing with work
// on other threads, handles used after destroy, event orderings across streams
// and devices, capture and replay racing with destroy, bursts of host functions.
// Every wait is bounded; what a race may legitimately answer is listed per call.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "acl/acl_mdl.h"
#include "runtime_test_util.h"

namespace canopy_test {
namespace {

using namespace std::chrono_literals;

// A stream destroyed by one thread while another destroys its context: both
// drain the same stream, and the stream's destroy must not touch the context
// once the context's destruction has finished (it did: a use after free that
// ASan and TSan report).
TEST(Adversarial, DestroyStreamWhileAnotherThreadDestroysItsContext) {
  ContextGuard guard;
  for (int iteration = 0; iteration < 20; ++iteration) {
    aclrtContext context = nullptr;
    ACL_ASSERT_OK(aclrtCreateContext(&context, 1));
    aclrtStream stream = nullptr;
    ACL_ASSERT_OK(aclrtCreateStream(&stream));
    auto blocker = std::make_unique<StreamBlocker>(stream);
    ASSERT_TRUE(blocker->WaitEntered());
    std::atomic<aclError> stream_status{-1}, context_status{-1};
    std::thread destroy_stream([&] { stream_status = aclrtDestroyStream(stream); });
    std::thread destroy_context([&] { context_status = aclrtDestroyContext(context); });
    // Both are (most likely) draining the blocked stream now.
    std::this_thread::sleep_for(2ms);
    blocker->Release();
    ASSERT_TRUE(WaitUntil([&] { return stream_status.load() != -1 && context_status.load() != -1; }))
        << "a destroy hung";
    destroy_stream.join();
    destroy_context.join();
    blocker.reset();
    EXPECT_EQ(context_status.load(), ACL_SUCCESS);
    // The stream is destroyed by whichever got it first; the other finds it gone.
    EXPECT_TRUE(stream_status.load() == ACL_SUCCESS || stream_status.load() == ACL_ERROR_INVALID_PARAM)
        << stream_status.load();
  }
}

// Streams made, used and destroyed in a context, and its memory queried, while
// another thread destroys the context: each call succeeds or answers a code
// (the context or stream is gone); a stream made in the context either is
// drained by its destruction or is refused, never left behind half-registered.
TEST(Adversarial, StreamsComeAndGoWhileAnotherThreadDestroysTheirContext) {
  ContextGuard guard;
  for (int iteration = 0; iteration < 20; ++iteration) {
    aclrtContext context = nullptr;
    ACL_ASSERT_OK(aclrtCreateContext(&context, 1));
    std::atomic<bool> started{false};
    std::atomic<int> ran{0}, launched{0};
    std::thread user([&] {
      EXPECT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
      started.store(true);
      for (int i = 0; i < 200; ++i) {
        aclrtStream stream = nullptr;
        const aclError created = aclrtCreateStream(&stream);
        if (created != ACL_SUCCESS) {
          EXPECT_EQ(created, ACL_ERROR_RT_CONTEXT_NULL) << RecentMessage();
          break;
        }
        if (canopyLaunchTask(stream, "count", IncrementCounterTask, nullptr, &ran) == ACL_SUCCESS) {
          launched.fetch_add(1);
        }
        size_t free = 0, total = 0;
        const aclError info = aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
        EXPECT_TRUE(info == ACL_SUCCESS || info == ACL_ERROR_RT_CONTEXT_NULL) << info;
        const aclError destroyed = aclrtDestroyStream(stream);
        EXPECT_TRUE(destroyed == ACL_SUCCESS || destroyed == ACL_ERROR_INVALID_PARAM) << destroyed;
      }
    });
    ASSERT_TRUE(WaitUntil([&] { return started.load(); }));
    std::this_thread::sleep_for(std::chrono::microseconds(100 * iteration));
    ACL_EXPECT_OK(aclrtDestroyContext(context));
    ASSERT_TRUE(RunBounded([&] { user.join(); })) << "a stream call hung";
    // Every task that was queued ran: either its stream or the context drained it.
    EXPECT_EQ(ran.load(), launched.load());
  }
}

// Threads that set device 1, use its default stream and reset it, while another
// force-resets the device under them: every call succeeds or answers that no
// context is current; the queued work of a released context ran.
TEST(Adversarial, SetUseAndResetADeviceWhileAnotherThreadForceResetsIt) {
  ContextGuard guard;
  std::atomic<bool> stop{false};
  std::atomic<int> launched{0}, ran{0};
  std::vector<std::thread> users;
  for (int t = 0; t < 2; ++t) {
    users.emplace_back([&] {
      for (int i = 0; i < 100 && !stop.load(); ++i) {
        EXPECT_EQ(aclrtSetDevice(1), ACL_SUCCESS) << RecentMessage();
        const aclError status = canopyLaunchTask(nullptr, "count", IncrementCounterTask, nullptr, &ran);
        // No context (released), or its default stream is being drained.
        if (status == ACL_SUCCESS) {
          launched.fetch_add(1);
        } else {
          EXPECT_TRUE(status == ACL_ERROR_RT_CONTEXT_NULL || status == ACL_ERROR_INVALID_PARAM)
              << status << " " << RecentMessage();
        }
        size_t free = 0, total = 0;
        const aclError info = aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
        EXPECT_TRUE(info == ACL_SUCCESS || info == ACL_ERROR_RT_CONTEXT_NULL) << info;
        const aclError reset = aclrtResetDevice(1);
        EXPECT_EQ(reset, ACL_SUCCESS) << RecentMessage();
      }
    });
  }
  std::thread resetter([&] {
    for (int i = 0; i < 20; ++i) {
      EXPECT_EQ(aclrtResetDeviceForce(1), ACL_SUCCESS) << RecentMessage();
      std::this_thread::sleep_for(200us);
    }
  });
  EXPECT_TRUE(RunBounded([&] {
    resetter.join();
    for (auto& thread : users) thread.join();
  })) << "a device call hung";
  stop.store(true);
  ACL_EXPECT_OK(aclrtResetDeviceForce(1));
  EXPECT_EQ(ran.load(), launched.load());
}

// Every handle kind used after its destruction is an error code, never a crash.
TEST(Adversarial, HandlesUsedAfterDestroyAreRefused) {
  ContextGuard guard;
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
  ACL_ASSERT_OK(aclrtDestroyStream(stream));
  ACL_ASSERT_OK(aclrtDestroyEvent(event));

  std::atomic<int> counter{0};
  EXPECT_EQ(aclrtLaunchHostFunc(stream, IncrementCounter, &counter), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtRecordEvent(event, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamWaitEvent(nullptr, event), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_ERROR_INVALID_PARAM);
  aclrtEventRecordedStatus status;
  EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_INVALID_PARAM);

  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtCreateContext(&context, 1));
  aclrtStream in_context = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&in_context));
  ACL_ASSERT_OK(aclrtDestroyContext(context));
  EXPECT_EQ(aclrtSetCurrentContext(context), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyContext(context), ACL_ERROR_INVALID_PARAM);
  // The context took its streams with it.
  EXPECT_EQ(aclrtLaunchHostFunc(in_context, IncrementCounter, &counter), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(in_context), ACL_ERROR_INVALID_PARAM);
  // The destroyed context was current: nothing is current now.
  EXPECT_EQ(aclrtLaunchHostFunc(nullptr, IncrementCounter, &counter), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(counter.load(), 0);
}

// A record queued behind a blocked stream makes the event not ready again, even
// though an earlier record on another device completed; elapsed time refuses it
// until the newest record is reached, and then measures from the newest records.
TEST(Adversarial, EventStateAcrossStreamsOfTwoDevices) {
  ContextGuard guard;
  ScopedStream first;  // device 0
  ACL_ASSERT_OK(aclrtSetDevice(1));
  aclrtStream second = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&second));
  aclrtEvent start = nullptr, end = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&start));
  ACL_ASSERT_OK(aclrtCreateEvent(&end));
  ACL_ASSERT_OK(aclrtRecordEvent(start, first));
  ACL_ASSERT_OK(aclrtRecordEvent(end, second));
  ACL_ASSERT_OK(aclrtSynchronizeEvent(start));
  ACL_ASSERT_OK(aclrtSynchronizeEvent(end));
  float ms = -1;
  ACL_EXPECT_OK(aclrtEventElapsedTime(&ms, start, end));
  {
    StreamBlocker blocker(second);
    ASSERT_TRUE(blocker.WaitEntered());
    ACL_ASSERT_OK(aclrtRecordEvent(start, second));  // behind the blocker
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    ACL_ASSERT_OK(aclrtQueryEventStatus(start, &status));
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(start, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    // A stream on the other device waits for the blocked record, not the old one.
    std::atomic<int> after_wait{0};
    ACL_ASSERT_OK(aclrtStreamWaitEvent(first, start));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(first, IncrementCounter, &after_wait));
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(first, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(after_wait.load(), 0);
    blocker.Release();
    ACL_ASSERT_OK(aclrtSynchronizeStreamWithTimeout(first, 20000));
    EXPECT_EQ(after_wait.load(), 1);
  }
  ACL_ASSERT_OK(aclrtSynchronizeEvent(start));
  ACL_EXPECT_OK(aclrtEventElapsedTime(&ms, end, start));
  EXPECT_GE(ms, 0.0f);
  // A reset leaves no time to measure from.
  ACL_ASSERT_OK(aclrtResetEvent(start, second));
  ACL_ASSERT_OK(aclrtSynchronizeStream(second));
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
  ACL_EXPECT_OK(aclrtDestroyEvent(start));
  ACL_EXPECT_OK(aclrtDestroyEvent(end));
  ACL_EXPECT_OK(aclrtDestroyStream(second));
  ACL_EXPECT_OK(aclrtResetDevice(1));
}

// Records, waits and force-destroys on several threads at once: every wait
// queued on a surviving stream ends (a dropped record never blocks it forever).
TEST(Adversarial, RecordsWaitsAndForceDestroysRaceAcrossDevices) {
  ContextGuard guard;
  ACL_ASSERT_OK(aclrtSetDevice(1));
  aclrtContext device1 = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&device1));
  ACL_ASSERT_OK(aclrtSetCurrentContext(guard.saved()));
  ScopedStream waiter;  // device 0
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  std::atomic<bool> stop{false};
  std::atomic<int> recorded{0};
  std::vector<std::thread> recorders;
  for (int t = 0; t < 2; ++t) {
    recorders.emplace_back([&] {
      EXPECT_EQ(aclrtSetCurrentContext(device1), ACL_SUCCESS);
      while (!stop.load()) {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) break;
        StreamBlocker blocker(stream);
        EXPECT_TRUE(blocker.WaitEntered());
        if (aclrtRecordEvent(event, stream) == ACL_SUCCESS) recorded.fetch_add(1);
        // Dropped while the blocker runs: the record behind it is abandoned.
        EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
        blocker.Release();
      }
    });
  }
  std::atomic<int> passed{0};
  for (int i = 0; i < 200; ++i) {
    ACL_ASSERT_OK(aclrtStreamWaitEvent(waiter, event));
    ACL_ASSERT_OK(aclrtLaunchHostFunc(waiter, IncrementCounter, &passed));
  }
  const bool drained = aclrtSynchronizeStreamWithTimeout(waiter, 20000) == ACL_SUCCESS;
  // The waits may all pass before a recorder's first record lands (a wait on an
  // event never recorded does not block), most of all on a loaded machine: let
  // the recorders record at least once before they stop.
  for (int i = 0; i < 20000 && recorded.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  stop.store(true);
  for (auto& thread : recorders) thread.join();
  EXPECT_TRUE(drained) << "a wait for a dropped record never ended";
  EXPECT_EQ(passed.load(), 200);
  EXPECT_GT(recorded.load(), 0);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 20000), ACL_SUCCESS);
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
  ACL_EXPECT_OK(aclrtResetDevice(1));
}

// Host functions launched in bursts from several threads, some of them from
// inside host functions, onto streams of two devices: every one runs exactly
// once and the pool shrinks and grows under it without losing any.
TEST(Adversarial, HostFunctionBurstsFromManyThreadsAndFromInsideHostFunctions) {
  ContextGuard guard;
  constexpr int kThreads = 4, kPerThread = 150;
  ACL_ASSERT_OK(aclrtSetDevice(1));
  aclrtContext device1 = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&device1));
  std::atomic<int> ran{0}, nested{0};
  struct Nest {
    aclrtStream target;
    std::atomic<int>* nested;
  };
  std::vector<std::thread> threads;
  std::vector<aclrtStream> streams(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    ACL_ASSERT_OK(aclrtSetCurrentContext(t % 2 == 0 ? guard.saved() : device1));
    ACL_ASSERT_OK(aclrtCreateStream(&streams[t]));
  }
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      aclrtStream own = streams[t], other = streams[(t + 1) % kThreads];
      Nest nest{other, &nested};
      for (int i = 0; i < kPerThread; ++i) {
        EXPECT_EQ(aclrtLaunchHostFunc(own, IncrementCounter, &ran), ACL_SUCCESS);
        if (i % 10 == 0) {
          EXPECT_EQ(aclrtLaunchHostFunc(
                        own,
                        [](void* data) {
                          auto* n = static_cast<Nest*>(data);
                          EXPECT_EQ(aclrtLaunchHostFunc(n->target, IncrementCounter, n->nested), ACL_SUCCESS);
                        },
                        &nest),
                    ACL_SUCCESS);
        }
        if (i % 50 == 0) std::this_thread::sleep_for(1ms);  // let idle threads go
      }
      EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(own, 20000), ACL_SUCCESS);
    });
  }
  for (auto& thread : threads) thread.join();
  for (aclrtStream stream : streams) ACL_EXPECT_OK(aclrtSynchronizeStreamWithTimeout(stream, 20000));
  EXPECT_EQ(ran.load(), kThreads * kPerThread);
  EXPECT_EQ(nested.load(), kThreads * (kPerThread / 10));
  for (aclrtStream stream : streams) ACL_EXPECT_OK(aclrtDestroyStream(stream));
  ACL_EXPECT_OK(aclrtSetCurrentContext(guard.saved()));
  ACL_EXPECT_OK(aclrtResetDevice(1));
}

// What a replayed model and an interloping host function share.
struct ReplayProbe {
  std::atomic<int> inside{0};       // a replay has begun and not ended
  std::atomic<int> counter{0};      // captured tasks that ran
  std::atomic<int> interleaved{0};  // interloping tasks that ran inside a replay
  static int32_t Enter(void* self) {
    static_cast<ReplayProbe*>(self)->inside.fetch_add(1);
    return 0;
  }
  static int32_t Leave(void* self) {
    static_cast<ReplayProbe*>(self)->inside.fetch_sub(1);
    return 0;
  }
  static int32_t Count(void* self) {
    static_cast<ReplayProbe*>(self)->counter.fetch_add(1);
    return 0;
  }
  static int32_t Interlope(void* self) {
    auto* probe = static_cast<ReplayProbe*>(self);
    if (probe->inside.load() != 0) probe->interleaved.fetch_add(1);
    return 0;
  }
  // Queues `run` on `stream` as an engine task.
  static aclError Launch(aclrtStream stream, canopyTaskFn run, ReplayProbe* probe) {
    return canopyLaunchTask(stream, "replay probe", run, nullptr, probe);
  }
};

// Replays of a captured model on one thread while another queues tasks on the
// same stream, and a third destroys the stream: a replay is one unit, as
// a model execution is on hardware. It ran whole when it was accepted and not
// at all when it was refused, and nothing queued by another thread lands inside
// it. (Replays were queued task by task: a stream closed midway ran a prefix of
// a replay that was reported refused, and other threads' tasks ran inside one.)
TEST(Adversarial, AReplayIsQueuedWholeOrNotAtAll) {
  ContextGuard guard;
  constexpr int kCounted = 2000;  // a long replay: the other threads act while it is being queued
  for (int iteration = 0; iteration < 10; ++iteration) {
    ReplayProbe probe;
    aclrtStream capture = nullptr, replay = nullptr;
    ACL_ASSERT_OK(aclrtCreateStream(&capture));
    ACL_ASSERT_OK(aclrtCreateStream(&replay));
    ACL_ASSERT_OK(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ACL_ASSERT_OK(ReplayProbe::Launch(capture, ReplayProbe::Enter, &probe));
    for (int i = 0; i < kCounted; ++i) ACL_ASSERT_OK(ReplayProbe::Launch(capture, ReplayProbe::Count, &probe));
    ACL_ASSERT_OK(ReplayProbe::Launch(capture, ReplayProbe::Leave, &probe));
    aclmdlRI model = nullptr;
    ACL_ASSERT_OK(aclmdlRICaptureEnd(capture, &model));
    std::atomic<int> accepted{0};
    std::atomic<bool> go{false};
    std::thread replayer([&] {
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < 20; ++i) {
        const aclError status = aclmdlRIExecuteAsync(model, replay);
        if (status == ACL_SUCCESS) {
          accepted.fetch_add(1);
        } else {
          EXPECT_EQ(status, ACL_ERROR_INVALID_PARAM) << RecentMessage();
        }
      }
    });
    std::thread interloper([&] {
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < 200; ++i) {
        const aclError status = ReplayProbe::Launch(replay, ReplayProbe::Interlope, &probe);
        if (status != ACL_SUCCESS) {
          EXPECT_EQ(status, ACL_ERROR_INVALID_PARAM) << RecentMessage();
        }
      }
    });
    std::thread stream_destroyer([&] {
      while (!go.load()) std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::microseconds(100 * iteration));
      EXPECT_EQ(aclrtDestroyStream(replay), ACL_SUCCESS);
    });
    go.store(true);
    EXPECT_TRUE(RunBounded([&] {
      replayer.join();
      interloper.join();
      stream_destroyer.join();
    })) << "a replay or destroy hung";
    // aclrtDestroyStream drained every accepted replay.
    EXPECT_EQ(probe.counter.load(), kCounted * accepted.load()) << "iteration " << iteration;
    EXPECT_EQ(probe.interleaved.load(), 0) << "iteration " << iteration;
    EXPECT_EQ(probe.inside.load(), 0);
    ACL_EXPECT_OK(aclmdlRIDestroy(model));
    ACL_EXPECT_OK(aclrtDestroyStream(capture));
  }
}

// A model destroyed while replays of it are queued is refused (they still use
// it) and can be destroyed once they have run; the replays run whole.
TEST(Adversarial, DestroyingAModelWithQueuedReplaysIsRefused) {
  ScopedStream capture, replay;
  ReplayProbe probe;
  ACL_ASSERT_OK(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_ASSERT_OK(ReplayProbe::Launch(capture, ReplayProbe::Count, &probe));
  aclmdlRI model = nullptr;
  ACL_ASSERT_OK(aclmdlRICaptureEnd(capture, &model));
  {
    StreamBlocker blocker(replay);
    ASSERT_TRUE(blocker.WaitEntered());
    for (int i = 0; i < 3; ++i) ACL_ASSERT_OK(aclmdlRIExecuteAsync(model, replay));
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_RT_MODEL_RUNNING);
  }
  ACL_ASSERT_OK(aclrtSynchronizeStreamWithTimeout(replay, 20000));
  EXPECT_EQ(probe.counter.load(), 3);
  ACL_EXPECT_OK(aclmdlRIDestroy(model));
  EXPECT_EQ(aclmdlRIExecuteAsync(model, replay), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_INVALID_PARAM);
}

// A capture in a context that another thread destroys while this one is still
// capturing into it: the capture ends with the context (its stream is gone),
// later capture calls answer codes, and nothing captured leaks or runs. (The
// teardown forgot the capture before it closed the stream: a launch in between
// found no capture and ran at once, reported as success.)
TEST(Adversarial, CaptureWhileAnotherThreadDestroysTheCapturingContext) {
  ContextGuard guard;
  for (int iteration = 0; iteration < 30; ++iteration) {
    aclrtContext context = nullptr;
    ACL_ASSERT_OK(aclrtCreateContext(&context, 1));
    aclrtStream stream = nullptr;
    ACL_ASSERT_OK(aclrtCreateStream(&stream));
    ACL_ASSERT_OK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclrtEvent event = nullptr;
    ACL_ASSERT_OK(aclrtCreateEvent(&event));
    std::atomic<int> ran{0};
    std::atomic<bool> started{false};
    std::thread capturer([&] {
      started.store(true);
      for (int i = 0; i < 300; ++i) {
        const aclError launched = canopyLaunchTask(stream, "captured", IncrementCounterTask, nullptr, &ran);
        const aclError recorded = aclrtRecordEvent(event, stream);
        // The stream went with its context.
        EXPECT_TRUE(launched == ACL_SUCCESS || launched == ACL_ERROR_INVALID_PARAM) << launched;
        EXPECT_TRUE(recorded == ACL_SUCCESS || recorded == ACL_ERROR_INVALID_PARAM) << recorded;
        if (launched != ACL_SUCCESS || recorded != ACL_SUCCESS) break;
      }
      aclmdlRI model = nullptr;
      const aclError ended = aclmdlRICaptureEnd(stream, &model);
      if (ended == ACL_SUCCESS) {
        EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
      }
    });
    ASSERT_TRUE(WaitUntil([&] { return started.load(); }));
    std::this_thread::sleep_for(std::chrono::microseconds(20 * iteration));
    ACL_EXPECT_OK(aclrtDestroyContext(context));
    ASSERT_TRUE(RunBounded([&] { capturer.join(); })) << "a capture call hung";
    EXPECT_EQ(ran.load(), 0) << "captured work ran";
    // The event was only ever recorded into the capture: nothing to wait for.
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 20000), ACL_SUCCESS) << RecentMessage();
    ACL_EXPECT_OK(aclrtDestroyEvent(event));
  }
}

// aclrtSynchronizeDevice on one thread while others force-destroy streams with
// work running and queued: it returns once the running work is done, and a
// force-destroyed stream's queued work never runs.
TEST(Adversarial, SynchronizeDeviceWhileStreamsAreForceDestroyed) {
  ContextGuard guard;
  std::atomic<int> dropped_ran{0}, rounds{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> destroyers;
  for (int t = 0; t < 2; ++t) {
    destroyers.emplace_back([&] {
      EXPECT_EQ(aclrtSetCurrentContext(guard.saved()), ACL_SUCCESS);
      while (!stop.load()) {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) break;
        GatedWrite gate;
        std::vector<unsigned char> block(64);
        gate.block = block.data();
        gate.bytes = block.size();
        EXPECT_EQ(canopyLaunchTask(stream, "gated write", GatedWrite::Run, nullptr, &gate), ACL_SUCCESS);
        EXPECT_EQ(canopyLaunchTask(stream, "dropped", IncrementCounterTask, nullptr, &dropped_ran), ACL_SUCCESS);
        EXPECT_TRUE(gate.WaitStarted());
        EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
        gate.open.store(true);
        // The device synchronisation below or this one waits for the gated task.
        EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(20000), ACL_SUCCESS) << RecentMessage();
        EXPECT_TRUE(gate.wrote.load());
        rounds.fetch_add(1);
      }
    });
  }
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  for (int i = 0; i < 50 || rounds.load() < 40; ++i) {
    ASSERT_EQ(aclrtSynchronizeDeviceWithTimeout(20000), ACL_SUCCESS) << RecentMessage();
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the destroyers made no progress: " << rounds.load();
  }
  stop.store(true);
  for (auto& thread : destroyers) thread.join();
  EXPECT_EQ(dropped_ran.load(), 0);
}

// A host function that force-destroys its own stream: the work queued behind
// it never runs, a plain destroy from there is refused (it would wait for
// itself), and a device synchronisation afterwards ends.
TEST(Adversarial, AHostFunctionForceDestroysItsOwnStream) {
  struct Self {
    aclrtStream stream = nullptr;
    aclError plain = -1, forced = -1;
    std::atomic<bool> queued{false};  // the tasks behind it are all enqueued
    std::atomic<bool> done{false};
  } self;
  ACL_ASSERT_OK(aclrtCreateStream(&self.stream));
  std::atomic<int> behind{0};
  ACL_ASSERT_OK(aclrtLaunchHostFunc(
      self.stream,
      [](void* data) {
        auto* me = static_cast<Self*>(data);
        // Without this wait the function can run (and destroy the stream) before
        // the test has enqueued the tasks it means to be dropped.
        WaitUntil([&] { return me->queued.load(); });
        me->plain = aclrtDestroyStream(me->stream);
        me->forced = aclrtDestroyStreamForce(me->stream);
        me->done.store(true);
      },
      &self));
  for (int i = 0; i < 10; ++i)
    ACL_ASSERT_OK(canopyLaunchTask(self.stream, "behind", IncrementCounterTask, nullptr, &behind));
  self.queued.store(true);
  ASSERT_TRUE(WaitUntil([&] { return self.done.load(); }));
  EXPECT_EQ(self.plain, ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_EQ(self.forced, ACL_SUCCESS);
  ACL_EXPECT_OK(aclrtSynchronizeDeviceWithTimeout(20000));
  EXPECT_EQ(behind.load(), 0);
  EXPECT_EQ(aclrtLaunchHostFunc(self.stream, IncrementCounter, &behind), ACL_ERROR_INVALID_PARAM);
}

// Blocking callbacks launched in a burst while another thread unsubscribes the
// thread that serves them: each launched callback runs or is reported lost
// (ACL_ERROR_RT_THREAD_SUBSCRIBE at the next synchronisation), the stream never
// waits forever, and launches after the unsubscription are refused.
TEST(Adversarial, BlockingCallbacksRaceTheirUnsubscription) {
  ScopedStream stream;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> id{0};
  std::atomic<int> ran{0};
  std::thread server([&] {
    id.store(static_cast<uint64_t>(pthread_self()));
    while (!stop.load()) aclrtProcessReport(10);
  });
  ASSERT_TRUE(WaitUntil([&] { return id.load() != 0; }));
  ACL_ASSERT_OK(aclrtSubscribeReport(id.load(), stream));
  std::atomic<int> launched{0};
  std::thread launcher([&] {
    for (int i = 0; i < 300; ++i) {
      const aclError status = aclrtLaunchCallback(IncrementCounter, &ran, ACL_CALLBACK_BLOCK, stream);
      if (status == ACL_SUCCESS) {
        launched.fetch_add(1);
      } else {
        EXPECT_EQ(status, ACL_ERROR_RT_STREAM_NO_CB_REG) << RecentMessage();
      }
    }
  });
  std::this_thread::sleep_for(1ms);
  const bool unsubscribed = RunBounded([&] { EXPECT_EQ(aclrtUnSubscribeReport(id.load(), stream), ACL_SUCCESS); });
  EXPECT_TRUE(unsubscribed) << "aclrtUnSubscribeReport hung";
  launcher.join();
  const aclError synced = aclrtSynchronizeStreamWithTimeout(stream, 20000);
  EXPECT_TRUE(synced == ACL_SUCCESS || synced == ACL_ERROR_RT_THREAD_SUBSCRIBE) << synced << " " << RecentMessage();
  stop.store(true);
  server.join();
  EXPECT_LE(ran.load(), launched.load());
  if (synced == ACL_SUCCESS) {
    EXPECT_EQ(ran.load(), launched.load());
  }
}

// The subscribed thread itself unsubscribing while a blocking callback is
// still due to it: it runs the callback while it waits (an adversarial pass
// found it waiting forever for the callback only it could run).
TEST(Adversarial, TheSubscribedThreadUnsubscribesWithABlockingCallbackDue) {
  ScopedStream stream;
  std::atomic<int> ran{0};
  const bool finished = RunBounded([&] {
    const auto self = static_cast<uint64_t>(pthread_self());
    ACL_ASSERT_OK(aclrtSubscribeReport(self, stream));
    ACL_ASSERT_OK(aclrtLaunchCallback(IncrementCounter, &ran, ACL_CALLBACK_BLOCK, stream));
    ACL_ASSERT_OK(aclrtUnSubscribeReport(self, stream));
  });
  ASSERT_TRUE(finished) << "aclrtUnSubscribeReport hung";
  EXPECT_EQ(ran.load(), 1);
  ACL_EXPECT_OK(aclrtSynchronizeStream(stream));
}

// A device task (canopyLaunchTask) synchronising an event whose record is
// queued behind it on its own stream is refused, as synchronising a stream of
// its device is (an adversarial pass found it waiting forever).
TEST(Adversarial, ADeviceTaskWaitingForAnEventRecordedBehindItIsRefused) {
  ScopedStream stream;
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  struct Probe {
    aclrtEvent event;
    std::atomic<bool> recorded{false};
    aclError status = ACL_SUCCESS;
  } probe{event};
  const auto wait = [](void* data) -> int32_t {
    auto* p = static_cast<Probe*>(data);
    // The record must be queued (behind this task) before the wait: an event
    // never recorded is complete.
    WaitUntil([&] { return p->recorded.load(); });
    p->status = aclrtSynchronizeEvent(p->event);
    return 0;
  };
  ACL_ASSERT_OK(canopyLaunchTask(stream, "event wait", wait, nullptr, &probe));
  ACL_ASSERT_OK(aclrtRecordEvent(event, stream));
  probe.recorded.store(true);
  const bool finished = RunBounded([&] { ACL_EXPECT_OK(aclrtSynchronizeStream(stream)); });
  ASSERT_TRUE(finished) << "the task's event wait hung";
  EXPECT_EQ(probe.status, ACL_ERROR_RT_INTERNAL_ERROR);
  ACL_EXPECT_OK(aclrtDestroyEvent(event));
}

// Frees of blocks that queued work on the other device still reads: the copy
// reads what was there when it was queued, never reused memory.
TEST(Adversarial, FreeWhileAnotherDevicesQueuedCopyReadsTheBlock) {
  CheckerOff unchecked;  // the free behind a queued read is what the checker reports
  ContextGuard guard;
  constexpr size_t kBytes = 1 << 16;
  ACL_ASSERT_OK(aclrtSetDevice(1));
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));  // device 1
  HostBuffer result(kBytes);
  ACL_ASSERT_OK(aclrtSetCurrentContext(guard.saved()));
  void* source = nullptr;
  ACL_ASSERT_OK(aclrtMalloc(&source, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_ASSERT_OK(aclrtMemset(source, kBytes, 0x3c, kBytes));
  {
    StreamBlocker blocker(stream);
    ASSERT_TRUE(blocker.WaitEntered());
    ACL_ASSERT_OK(aclrtMemcpyAsync(result.get(), kBytes, source, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    ACL_ASSERT_OK(aclrtFree(source));  // deferred past the queued copy
    // Whatever is allocated now must not be the block the copy still reads.
    std::vector<void*> fresh(8);
    for (void*& block : fresh) {
      ACL_ASSERT_OK(aclrtMalloc(&block, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
      ACL_ASSERT_OK(aclrtMemset(block, kBytes, 0x77, kBytes));
    }
    blocker.Release();
    ACL_ASSERT_OK(aclrtSynchronizeStreamWithTimeout(stream, 20000));
    for (void* block : fresh) ACL_EXPECT_OK(aclrtFree(block));
  }
  const auto* bytes = result.as<unsigned char>();
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(bytes[i], 0x3c) << "byte " << i;
  ACL_EXPECT_OK(aclrtDestroyStream(stream));
  ACL_EXPECT_OK(aclrtResetDevice(1));
}

// aclFinalize while other threads keep enqueuing on the default stream, on a
// created stream and recording events: they get codes (success before the
// teardown, ACL_ERROR_UNINITIALIZE or a dead handle after), never a crash.
// Runs last: it initialises acl again for the environment's teardown.
TEST(Adversarial, ZzFinalizeWhileOtherThreadsEnqueue) {
  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&context));
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  aclrtEvent event = nullptr;
  ACL_ASSERT_OK(aclrtCreateEvent(&event));
  std::atomic<bool> stop{false};
  std::atomic<int> counter{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      aclrtSetCurrentContext(context);
      while (!stop.load()) {
        switch (t) {
          // Each waits for what it queued, so the teardown drains little.
          case 0:
            aclrtLaunchHostFunc(nullptr, IncrementCounter, &counter);
            aclrtSynchronizeStreamWithTimeout(nullptr, 1000);
            break;
          case 1:
            aclrtLaunchHostFunc(stream, IncrementCounter, &counter);
            aclrtRecordEvent(event, stream);
            aclrtSynchronizeStreamWithTimeout(stream, 1000);
            break;
          case 2:
            aclrtStreamWaitEvent(nullptr, event);
            aclrtSynchronizeEventWithTimeout(event, 1000);
            break;
          default: {
            // Device memory and device 1 come and go.
            void* block = nullptr;
            if (aclrtMalloc(&block, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) aclrtFree(block);
            size_t free = 0, total = 0;
            aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
            if (aclrtSetDevice(1) == ACL_SUCCESS) aclrtResetDevice(1);
            aclrtSetCurrentContext(context);
            break;
          }
        }
      }
    });
  }
  ASSERT_TRUE(WaitUntil([&] { return counter.load() > 100; }));
  EXPECT_TRUE(RunBounded([] { EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << RecentMessage(); })) << "aclFinalize hung";
  std::this_thread::sleep_for(5ms);  // the threads go on calling into a finalized runtime
  stop.store(true);
  for (auto& thread : threads) thread.join();
  ACL_EXPECT_OK(aclInit(nullptr));
  ACL_EXPECT_OK(aclrtSetDevice(0));
}

}  // namespace
}  // namespace canopy_test
