// aclrtSubscribeReport / aclrtLaunchCallback / aclrtProcessReport /
// aclrtUnSubscribeReport, and host functions on the runtime's own threads.
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

// A user thread that serves callbacks the way CANN's samples do.
class ReportThread {
 public:
  ReportThread() {
    thread_ = std::thread([this] {
      id_.store(static_cast<uint64_t>(pthread_self()));
      while (!stop_.load()) {
        const aclError status = aclrtProcessReport(20);
        if (status == ACL_SUCCESS) processed_.fetch_add(1);
      }
    });
    EXPECT_TRUE(WaitUntil([&] { return id_.load() != 0; }));
  }
  ~ReportThread() {
    stop_.store(true);
    thread_.join();
  }
  uint64_t id() const { return id_.load(); }
  int processed() const { return processed_.load(); }

 private:
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> id_{0};
  std::atomic<int> processed_{0};
};

struct CallbackLog {
  std::mutex mutex;
  std::vector<std::string> steps;
  std::vector<uint64_t> threads;
  void Add(const char* step) {
    std::lock_guard lock(mutex);
    steps.push_back(step);
    threads.push_back(static_cast<uint64_t>(pthread_self()));
  }
  // Copies taken under the lock: a no-block callback may still be running.
  std::vector<std::string> Steps() {
    std::lock_guard lock(mutex);
    return steps;
  }
  std::vector<uint64_t> Threads() {
    std::lock_guard lock(mutex);
    return threads;
  }
};
struct Entry {
  CallbackLog* log;
  const char* step;
};
void SlowCallback(void* arg) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto* entry = static_cast<Entry*>(arg);
  entry->log->Add(entry->step);
}
void QuickCallback(void* arg) {
  auto* entry = static_cast<Entry*>(arg);
  entry->log->Add(entry->step);
}
int32_t TaskStep(void* arg) {
  QuickCallback(arg);
  return 0;
}

TEST(Callback, SubscribeLaunchProcessUnsubscribe) {
  ReportThread reporter;
  ScopedStream stream;
  ACL_ASSERT_OK(aclrtSubscribeReport(reporter.id(), stream));
  CallbackLog log;
  Entry blocking{&log, "blocking"}, after{&log, "after"}, nonblocking{&log, "nonblocking"};
  ACL_ASSERT_OK(aclrtLaunchCallback(SlowCallback, &blocking, ACL_CALLBACK_BLOCK, stream));
  ACL_ASSERT_OK(canopyLaunchTask(stream, "after", TaskStep, nullptr, &after));
  ACL_ASSERT_OK(aclrtLaunchCallback(QuickCallback, &nonblocking, ACL_CALLBACK_NO_BLOCK, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  // The blocking callback held the stream: the task after it ran later.
  auto steps = log.Steps();
  ASSERT_GE(steps.size(), 2u);
  EXPECT_EQ(steps[0], "blocking");
  EXPECT_EQ(steps[1], "after");
  EXPECT_EQ(log.Threads()[0], reporter.id());  // callbacks run on the subscribed thread
  // Callbacks launched before the unsubscribe still run.
  ACL_ASSERT_OK(aclrtUnSubscribeReport(reporter.id(), stream));
  ASSERT_TRUE(WaitUntil([&] { return reporter.processed() == 2; }));
  steps = log.Steps();
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[2], "nonblocking");
  EXPECT_EQ(log.Threads()[2], reporter.id());
}

TEST(Callback, OneThreadServesSeveralStreams) {
  ReportThread reporter;
  ScopedStream a, b;
  ACL_ASSERT_OK(aclrtSubscribeReport(reporter.id(), a));
  ACL_ASSERT_OK(aclrtSubscribeReport(reporter.id(), b));
  CallbackLog log;
  Entry on_a{&log, "a"}, on_b{&log, "b"};
  for (int i = 0; i < 10; ++i) {
    ACL_ASSERT_OK(aclrtLaunchCallback(QuickCallback, &on_a, ACL_CALLBACK_BLOCK, a));
    ACL_ASSERT_OK(aclrtLaunchCallback(QuickCallback, &on_b, ACL_CALLBACK_BLOCK, b));
  }
  ACL_ASSERT_OK(aclrtSynchronizeStream(a));
  ACL_ASSERT_OK(aclrtSynchronizeStream(b));
  EXPECT_EQ(log.Steps().size(), 20u);
  ACL_EXPECT_OK(aclrtUnSubscribeReport(reporter.id(), a));
  ACL_EXPECT_OK(aclrtUnSubscribeReport(reporter.id(), b));
}

TEST(Callback, ArgumentAndStateChecks) {
  ScopedStream stream;
  CallbackLog log;
  Entry entry{&log, "x"};
  ACL_EXPECT_ERROR(aclrtLaunchCallback(QuickCallback, &entry, ACL_CALLBACK_BLOCK, stream),
                   ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtLaunchCallback");
  const auto self = static_cast<uint64_t>(pthread_self());
  // The calling thread is not subscribed to anything.
  ACL_EXPECT_ERROR(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessReport");
  ACL_ASSERT_OK(aclrtSubscribeReport(self, stream));
  ACL_EXPECT_ERROR(aclrtSubscribeReport(self + 1, stream), ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtSubscribeReport");
  ACL_EXPECT_ERROR(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessReport");
  ACL_EXPECT_ERROR(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM, "aclrtProcessReport");
  ACL_EXPECT_ERROR(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM, "aclrtProcessReport");
  ACL_EXPECT_ERROR(aclrtLaunchCallback(nullptr, &entry, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtLaunchCallback");
  ACL_EXPECT_ERROR(aclrtLaunchCallback(QuickCallback, &entry, static_cast<aclrtCallbackBlockType>(5), stream),
                   ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback");
  // The subscribed thread may run the callback itself.
  ACL_ASSERT_OK(aclrtLaunchCallback(QuickCallback, &entry, ACL_CALLBACK_NO_BLOCK, stream));
  ACL_EXPECT_OK(aclrtProcessReport(-1));
  EXPECT_EQ(log.Steps().size(), 1u);
  ACL_EXPECT_ERROR(aclrtUnSubscribeReport(self + 1, stream), ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtUnSubscribeReport");
  ACL_EXPECT_OK(aclrtUnSubscribeReport(self, stream));
  ACL_EXPECT_ERROR(aclrtUnSubscribeReport(self, stream), ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtUnSubscribeReport");
  ACL_EXPECT_ERROR(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessReport");
}

TEST(Callback, HostFunctionsRunOnCallbackThreadsAndDoNotBlockOtherStreams) {
  ScopedStream held, other;
  CallbackLog log;
  Entry step{&log, "other"};
  {
    StreamBlocker blocker(held);  // a host function that blocks
    ASSERT_TRUE(blocker.WaitEntered());
    ACL_ASSERT_OK(aclrtLaunchHostFunc(other, QuickCallback, &step));
    ACL_ASSERT_OK(aclrtSynchronizeStream(other));  // ran while the first one still blocks
    EXPECT_FALSE(blocker.left());
  }
  ASSERT_EQ(log.Threads().size(), 1u);
  EXPECT_NE(log.Threads()[0], static_cast<uint64_t>(pthread_self()));
}

// A thread that subscribes nothing itself and never calls aclrtProcessReport.
class SilentThread {
 public:
  SilentThread()
      : thread_([this] {
          id_.store(static_cast<uint64_t>(pthread_self()));
          stop_future_.wait();
        }) {
    EXPECT_TRUE(WaitUntil([&] { return id_.load() != 0; }));
  }
  ~SilentThread() {
    stop_.set_value();
    thread_.join();
  }
  uint64_t id() const { return id_.load(); }

 private:
  std::promise<void> stop_;
  std::shared_future<void> stop_future_{stop_.get_future().share()};
  std::atomic<uint64_t> id_{0};
  std::thread thread_;
};

TEST(Callback, DestroyForceDropsABlockingCallbackNobodyProcessed) {
  SilentThread silent;
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  ACL_ASSERT_OK(aclrtSubscribeReport(silent.id(), stream));
  CallbackLog log;
  Entry entry{&log, "never"};
  ACL_ASSERT_OK(aclrtLaunchCallback(QuickCallback, &entry, ACL_CALLBACK_BLOCK, stream));
  std::atomic<int> after{0};
  ACL_ASSERT_OK(canopyLaunchTask(stream, "after the callback", IncrementCounterTask, nullptr, &after));
  // Gives the engine time to hand the callback to the silent thread.
  ACL_EXPECT_ERROR(aclrtSynchronizeStreamWithTimeout(stream, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   "aclrtSynchronizeStreamWithTimeout");
  ACL_ASSERT_OK(aclrtDestroyStreamForce(stream));
  // The device's work includes the destroyed stream's: it must not wait for the callback.
  ACL_EXPECT_OK(aclrtSynchronizeDeviceWithTimeout(30000));
  EXPECT_TRUE(log.Steps().empty());
  EXPECT_EQ(after.load(), 0);
}

TEST(Callback, ResetDeviceAfterDestroyForceDoesNotWaitForAnUnprocessedCallback) {
  SilentThread silent;
  ContextGuard guard;
  ACL_ASSERT_OK(aclrtSetDevice(1));
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  ACL_ASSERT_OK(aclrtSubscribeReport(silent.id(), stream));
  CallbackLog log;
  Entry entry{&log, "never"};
  ACL_ASSERT_OK(aclrtLaunchCallback(QuickCallback, &entry, ACL_CALLBACK_BLOCK, stream));
  ACL_EXPECT_ERROR(aclrtSynchronizeStreamWithTimeout(stream, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   "aclrtSynchronizeStreamWithTimeout");
  ACL_ASSERT_OK(aclrtDestroyStreamForce(stream));
  std::atomic<bool> reset{false};
  std::thread watchdog([&] {
    // aclrtResetDevice has no timeout: fail (rather than hang) if it never returns.
    if (!WaitUntil([&] { return reset.load(); }, std::chrono::seconds(60))) {
      ADD_FAILURE() << "aclrtResetDevice waited for a callback nobody will run";
      std::abort();
    }
  });
  ACL_EXPECT_OK(aclrtResetDevice(1));
  reset.store(true);
  watchdog.join();
  EXPECT_TRUE(log.Steps().empty());
  ACL_ASSERT_OK(aclrtSetCurrentContext(guard.saved()));
}

TEST(Callback, AThreadServesTheStreamsOfOneDeviceOnly) {
  ReportThread reporter;
  ScopedStream on_device0;
  ACL_ASSERT_OK(aclrtSubscribeReport(reporter.id(), on_device0));
  ContextGuard guard;
  ACL_ASSERT_OK(aclrtSetDevice(1));
  {
    ScopedStream on_device1;
    ACL_EXPECT_ERROR(aclrtSubscribeReport(reporter.id(), on_device1), ACL_ERROR_RT_THREAD_SUBSCRIBE,
                     "aclrtSubscribeReport");
    // The refusal left no subscription behind.
    CallbackLog log;
    Entry entry{&log, "x"};
    ACL_EXPECT_ERROR(aclrtLaunchCallback(QuickCallback, &entry, ACL_CALLBACK_BLOCK, on_device1),
                     ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtLaunchCallback");
  }
  ACL_EXPECT_OK(aclrtResetDevice(1));
  ACL_ASSERT_OK(aclrtSetCurrentContext(guard.saved()));
  ACL_EXPECT_OK(aclrtUnSubscribeReport(reporter.id(), on_device0));
  // Once it serves no stream, it may serve another device's.
  ACL_ASSERT_OK(aclrtSetDevice(1));
  {
    ScopedStream on_device1;
    ACL_EXPECT_OK(aclrtSubscribeReport(reporter.id(), on_device1));
    ACL_EXPECT_OK(aclrtUnSubscribeReport(reporter.id(), on_device1));
  }
  ACL_EXPECT_OK(aclrtResetDevice(1));
}

size_t ThreadsInProcess() {
  size_t count = 0;
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return 0;
  while (dirent* entry = readdir(tasks)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(tasks);
  return count;
}

TEST(Callback, IdleHostFunctionThreadsExit) {
  constexpr int kStreams = 64;
  const size_t before = ThreadsInProcess();
  ASSERT_GT(before, 0u);
  {
    std::vector<std::unique_ptr<ScopedStream>> streams;
    std::vector<std::unique_ptr<StreamBlocker>> blockers;
    for (int i = 0; i < kStreams; ++i) {
      streams.push_back(std::make_unique<ScopedStream>());
      blockers.push_back(std::make_unique<StreamBlocker>(*streams.back()));
    }
    // Every host function blocks at once: each has a thread of its own.
    for (auto& blocker : blockers) ASSERT_TRUE(blocker->WaitEntered());
    EXPECT_GT(ThreadsInProcess(), static_cast<size_t>(kStreams));
    for (auto& blocker : blockers) blocker->Release();
    for (auto& stream : streams) ACL_ASSERT_OK(aclrtSynchronizeStream(*stream));
  }
  // Idle, the threads go away again (all but one kept for the next host function).
  EXPECT_TRUE(WaitUntil([&] { return ThreadsInProcess() <= before + 1; }, std::chrono::seconds(60)))
      << ThreadsInProcess() << " threads, " << before << " before";
  // The pool still works afterwards.
  ScopedStream stream;
  std::atomic<int> counter{0};
  ACL_ASSERT_OK(aclrtLaunchHostFunc(stream, IncrementCounter, &counter));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(counter.load(), 1);
}

// Host functions run on the runtime's pool threads, which an engine thread
// starts once its compute team is bound to single CPUs: each must run with
// the CPUs the process may use, not pinned to the engine's CPU (nor must the
// threads a client starts from one). Eight at once, each waiting for the
// others, so that most run on threads started after the binding.
int32_t BindTheComputeTeam(void*) {
  canopyPrepareComputeTeam();
  return ACL_SUCCESS;
}

struct AffinityProbe {
  cpu_set_t cpus;
  std::atomic<int>* started = nullptr;
  int total = 0;
};

void RecordAffinity(void* user_data) {
  auto* probe = static_cast<AffinityProbe*>(user_data);
  CPU_ZERO(&probe->cpus);
  sched_getaffinity(0, sizeof(probe->cpus), &probe->cpus);
  probe->started->fetch_add(1);
  WaitUntil([&] { return probe->started->load() >= probe->total; }, std::chrono::seconds(30));
}

TEST(Callback, HostFunctionsRunOnTheProcessCpus) {
  cpu_set_t process;
  CPU_ZERO(&process);
  ASSERT_EQ(sched_getaffinity(0, sizeof(process), &process), 0);
  constexpr int kProbes = 8;
  std::vector<std::unique_ptr<ScopedStream>> streams;
  for (int i = 0; i < kProbes; ++i) streams.push_back(std::make_unique<ScopedStream>());
  ACL_ASSERT_OK(canopyLaunchTask(*streams[0], "bind the compute team", BindTheComputeTeam, nullptr, nullptr));
  ACL_ASSERT_OK(aclrtSynchronizeStream(*streams[0]));
  std::atomic<int> started{0};
  std::vector<AffinityProbe> probes(kProbes);
  for (int i = 0; i < kProbes; ++i) {
    probes[i].started = &started;
    probes[i].total = kProbes;
    ACL_ASSERT_OK(aclrtLaunchHostFunc(*streams[i], RecordAffinity, &probes[i]));
  }
  for (auto& stream : streams) ACL_ASSERT_OK(aclrtSynchronizeStream(*stream));
  ASSERT_EQ(started.load(), kProbes);
  for (int i = 0; i < kProbes; ++i) {
    EXPECT_TRUE(CPU_EQUAL(&probes[i].cpus, &process))
        << "host function " << i << " ran with " << CPU_COUNT(&probes[i].cpus) << " CPU(s), the process has "
        << CPU_COUNT(&process);
  }
}

// Run in a child process: with the address space nearly full no new thread can
// be started. Exits 0 when the host function's failure was reported as an error.
[[noreturn]] void HostFunctionWithoutThreads() {
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) _exit(10);
  std::atomic<int> counter{0};
  // The engine's thread and its memory are in place before the limit.
  if (canopyLaunchTask(stream, "warm up", IncrementCounterTask, nullptr, &counter) != ACL_SUCCESS) _exit(11);
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) _exit(12);
  rlimit saved{};
  if (!CapAddressSpace(&saved)) _exit(14);
  if (aclrtLaunchHostFunc(stream, IncrementCounter, &counter) != ACL_SUCCESS) _exit(15);
  const aclError status = aclrtSynchronizeStream(stream);
  const std::string message = RecentMessage();
  setrlimit(RLIMIT_AS, &saved);
  if (status != ACL_ERROR_RT_RESOURCE_ALLOC_FAIL) _exit(16);
  if (message.find("aclrtLaunchHostFunc") == std::string::npos) _exit(17);
  if (counter.load() != 1) _exit(18);  // the host function did not run
  // With threads available again the stream and the pool carry on.
  if (aclrtLaunchHostFunc(stream, IncrementCounter, &counter) != ACL_SUCCESS) _exit(19);
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) _exit(20);
  if (counter.load() != 2) _exit(21);
  _exit(0);
}

TEST(CallbackDeathTest, AHostFunctionThreadThatCannotStartIsAnErrorNotAnAbort) {
  if (kSanitized) GTEST_SKIP() << "sanitizers reserve address space; the limit cannot be set";
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process, runtime started anew
  EXPECT_EXIT(HostFunctionWithoutThreads(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
