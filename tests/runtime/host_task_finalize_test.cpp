// aclFinalize while host tasks (canopyLaunchHostTask) are started and not yet
// claimed, claimed by a callback thread, or running in another thread's
// synchronisation. In the adversarial binary, after its own finalize test: it
// initialises acl again at the end, as that one does.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "runtime_test_util.h"

namespace canopy_test {
namespace {

// Counts the launches the runtime accepted, and the runs and releases of those.
struct Tally {
  std::atomic<int> accepted{0};
  std::atomic<int> runs{0};
  std::atomic<int> releases{0};
  static int32_t Run(void* self) {
    static_cast<Tally*>(self)->runs.fetch_add(1);
    return ACL_SUCCESS;
  }
  static int32_t RunSlowly(void* self) {
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    return Run(self);
  }
  static void Release(void* self) { static_cast<Tally*>(self)->releases.fetch_add(1); }
};

TEST(ZzzHostTaskFinalize, FinalizeWhileHostTasksAreStartedClaimedAndRunInline) {
  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&context));
  constexpr int kThreads = 3;
  aclrtStream streams[kThreads] = {};
  for (aclrtStream& stream : streams) ACL_ASSERT_OK(aclrtCreateStream(&stream));
  Tally tally;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      aclrtSetCurrentContext(context);
      while (!stop.load()) {
        // 0: waits untimed (runs its tasks itself); 1: waits timed (a callback
        // thread runs them); 2: never waits (they stay started, unclaimed).
        const canopyTaskFn run = t == 2 ? Tally::RunSlowly : Tally::Run;
        if (canopyLaunchHostTask(streams[t], "tally", run, Tally::Release, &tally) == ACL_SUCCESS) {
          tally.accepted.fetch_add(1);
        }
        if (t == 0) (void)aclrtSynchronizeStream(streams[t]);
        if (t == 1) (void)aclrtSynchronizeStreamWithTimeout(streams[t], 1000);
        if (t == 2) std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    });
  }
  ASSERT_TRUE(WaitUntil([&] { return tally.runs.load() > 200; }));
  EXPECT_TRUE(RunBounded([] { EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << RecentMessage(); }, std::chrono::seconds(20)))
      << "aclFinalize hung";
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the threads call into a finalized runtime
  stop.store(true);
  for (auto& thread : threads) thread.join();
  // Every accepted task ran once and was released once; refused ones were neither.
  EXPECT_TRUE(WaitUntil([&] { return tally.releases.load() >= tally.accepted.load(); }));
  EXPECT_EQ(tally.runs.load(), tally.accepted.load());
  EXPECT_EQ(tally.releases.load(), tally.accepted.load());
  ACL_EXPECT_OK(aclInit(nullptr));
  ACL_EXPECT_OK(aclrtSetDevice(0));
}

}  // namespace
}  // namespace canopy_test
