// Where a device engine's compute threads run: once the engine first forks an
// OpenMP team, each is bound to its own CPU (the engine on the process's last
// allowed CPU, its OpenMP workers below it, shifted by the device id), unless
// binding does not apply. In the lifecycle binary: every test gets fresh engines.
#include <omp.h>
#include <pthread.h>
#include <sched.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

// The CPUs in `set`, or none when the call that filled it failed.
std::vector<int> CpusIn(const cpu_set_t& set, bool filled) {
  std::vector<int> cpus;
  if (!filled) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

std::vector<int> CpusOfCurrentThread() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return CpusIn(set, pthread_getaffinity_np(pthread_self(), sizeof(set), &set) == 0);
}

std::vector<int> CpusOfProcess() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return CpusIn(set, sched_getaffinity(0, sizeof(set), &set) == 0);
}

#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitizer = true;
#else
constexpr bool kThreadSanitizer = false;
#endif

struct Placement {
  std::vector<int> engine;
  std::vector<std::vector<int>> team;  // by OpenMP thread number
};

int32_t RecordPlacement(void* data) {
  auto& placement = *static_cast<Placement*>(data);
  placement.engine = CpusOfCurrentThread();
  // TSan cannot follow libgomp's fork and join; the runtime opens no team there.
  if constexpr (!kThreadSanitizer) {
    const int threads = omp_get_max_threads();
    placement.team.assign(static_cast<size_t>(threads), {});
#pragma omp parallel num_threads(threads)
    placement.team[static_cast<size_t>(omp_get_thread_num())] = CpusOfCurrentThread();
  }
  return 0;
}

int32_t PrepareThenRecord(void* data) {
  canopyPrepareComputeTeam();
  return RecordPlacement(data);
}

// Records where `device`'s engine runs; `prepare` first does what a kernel
// does before it forks a team.
Placement PlacementOn(int32_t device, bool prepare) {
  Placement placement;
  EXPECT_EQ(aclrtSetDevice(device), ACL_SUCCESS) << RecentMessage();
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS) << RecentMessage();
  const canopyTaskFn record = prepare ? PrepareThenRecord : RecordPlacement;
  EXPECT_EQ(canopyLaunchTask(stream, "placement", record, nullptr, &placement), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentMessage();
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS) << RecentMessage();
  return placement;
}

bool BindingApplies(int threads, size_t cpus) {
  const char* bind = std::getenv("CANOPY_BIND_THREADS");
  if (bind != nullptr && std::strcmp(bind, "0") == 0) return false;
  return !kThreadSanitizer && omp_get_proc_bind() == omp_proc_bind_false && threads >= 2 &&
         static_cast<size_t>(threads) <= cpus;
}

// The CPUs a device reports: the process's, capped by a cgroup CPU limit.
int64_t DeviceCores() {
  int64_t cores = 0;
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores), ACL_SUCCESS) << RecentMessage();
  return cores;
}

// The threads an engine's team has: OMP_NUM_THREADS where set, else libgomp's
// default capped at the device's CPUs (the runtime narrows it to a cgroup limit).
int ExpectedTeamSize() {
  const char* requested = std::getenv("OMP_NUM_THREADS");
  if (requested != nullptr && *requested != '\0') return omp_get_max_threads();
  return static_cast<int>(std::min<int64_t>(omp_get_max_threads(), DeviceCores()));
}

// Every test starts from a fresh aclInit, so the engines' threads are new.
class ComputeTeamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("CANOPY_DEVICE_COUNT", "2", 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << RecentMessage();
    cpus_ = CpusOfProcess();
    ASSERT_FALSE(cpus_.empty());
    threads_ = ExpectedTeamSize();
    binds_ = BindingApplies(threads_, cpus_.size());
  }
  void TearDown() override {
    for (void* memory : allocations_) EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS) << RecentMessage();
    aclFinalize();
    unsetenv("CANOPY_DEVICE_COUNT");
  }

  // Device memory freed at the end of the test.
  void* Malloc(size_t bytes) {
    void* memory = nullptr;
    EXPECT_EQ(aclrtMalloc(&memory, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << RecentMessage();
    if (memory != nullptr) allocations_.push_back(memory);
    return memory;
  }

  // Where `device`'s team runs once it has forked: bound where binding
  // applies, else on the process's CPUs.
  void ExpectPlacedAfterFork(int32_t device, bool prepare) const {
    const Placement placement = PlacementOn(device, prepare);
    if (binds_) {
      ExpectBound(device, placement);
    } else {
      EXPECT_EQ(placement.engine, cpus_) << "binding does not apply: the engine keeps the process's CPUs";
    }
  }

  // Thread `thread` of `device`'s team: the (thread + device)-th CPU from the last.
  int ExpectedCpu(int32_t device, int thread) const {
    const auto n = static_cast<int>(cpus_.size());
    return cpus_[static_cast<size_t>(n - 1 - (thread + device) % n)];
  }

  void ExpectBound(int32_t device, const Placement& placement) const {
    SCOPED_TRACE(device);
    EXPECT_EQ(placement.engine, std::vector<int>{ExpectedCpu(device, 0)});
    ASSERT_EQ(placement.team.size(), static_cast<size_t>(threads_));
    std::set<int> distinct;
    for (int thread = 0; thread < threads_; ++thread) {
      const std::vector<int>& cpus = placement.team[static_cast<size_t>(thread)];
      EXPECT_EQ(cpus, std::vector<int>{ExpectedCpu(device, thread)}) << thread;
      if (cpus.size() == 1) distinct.insert(cpus[0]);
    }
    EXPECT_EQ(distinct.size(), static_cast<size_t>(threads_)) << "no two team threads share a CPU";
  }

  std::vector<int> cpus_;
  int threads_ = 0;
  bool binds_ = false;
  std::vector<void*> allocations_;
};

TEST_F(ComputeTeamTest, EachThreadOfAPreparedTeamHasItsOwnCpu) {
  for (int32_t device = 0; device < 2; ++device) ExpectPlacedAfterFork(device, true);
}

TEST_F(ComputeTeamTest, NothingIsBoundBeforeATeamIsNeeded) {
  // Tasks that fork no team leave the engine alone, so a client whose work
  // never forks keeps the only OpenMP team of the process.
  const Placement placement = PlacementOn(0, false);
  EXPECT_EQ(placement.engine, cpus_);
}

TEST_F(ComputeTeamTest, ALargeDeviceCopyPreparesTheTeam) {
  // The runtime's own parallel copy (from 1 MiB) forks the engine's team.
  constexpr size_t kBytes = size_t{4} << 20;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << RecentMessage();
  void* a = Malloc(kBytes);
  void* b = Malloc(kBytes);
  ASSERT_TRUE(a != nullptr && b != nullptr);
  std::memset(a, 0x5a, kBytes);
  aclrtStream stream = nullptr;
  ACL_ASSERT_OK(aclrtCreateStream(&stream));
  ACL_ASSERT_OK(aclrtMemcpyAsync(b, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  ACL_ASSERT_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(static_cast<unsigned char*>(b)[kBytes - 1], 0x5a);
  ACL_ASSERT_OK(aclrtDestroyStream(stream));
  ExpectPlacedAfterFork(0, false);
}

TEST_F(ComputeTeamTest, ASynchronousCopyRunsOnTheEngine) {
  // aclrtMemcpy hands its parallel copy to the device's engine, so the
  // client's thread forks no OpenMP team; the engine's team gets bound.
  constexpr size_t kBytes = size_t{4} << 20;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << RecentMessage();
  void* a = Malloc(kBytes);
  void* b = Malloc(kBytes);
  ASSERT_TRUE(a != nullptr && b != nullptr);
  std::memset(a, 0x3c, kBytes);
  ACL_ASSERT_OK(aclrtMemcpy(b, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_EQ(static_cast<unsigned char*>(b)[kBytes / 2], 0x3c);
  ExpectPlacedAfterFork(0, false);
}

TEST_F(ComputeTeamTest, ClientThreadIsNeverBound) {
  PlacementOn(0, true);
  EXPECT_EQ(CpusOfCurrentThread(), cpus_);
}

// A cgroup with a CPU limit of one CPU, made below this process's own cgroup,
// that the process moves into for a test and back out of after it (v1's cpu
// controller or v2's cpu.max). Where the cgroup filesystem is not writable (an
// unprivileged container) nothing moves.
class OneCpuCgroup {
 public:
  OneCpuCgroup() {
    namespace fs = std::filesystem;
    const std::string name = "canopy_team_test_" + std::to_string(getpid());
    for (const char* v1 : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
      if (!fs::exists(std::string(v1) + "/cpu.cfs_quota_us")) continue;
      const std::string own = OwnCgroup(v1, false);
      if (Enter(own, name, {{"cpu.cfs_period_us", "100000"}, {"cpu.cfs_quota_us", "100000"}})) return;
    }
    if (fs::exists("/sys/fs/cgroup/cgroup.controllers")) {
      const std::string own = OwnCgroup("/sys/fs/cgroup", true);
      Write(own + "/cgroup.subtree_control", "+cpu");
      Enter(own, name, {{"cpu.max", "100000 100000"}});
    }
  }
  ~OneCpuCgroup() {
    if (directory_.empty()) return;
    Write(parent_ + "/cgroup.procs", std::to_string(getpid()));
    std::error_code ignored;
    std::filesystem::remove(directory_, ignored);
  }
  bool entered() const { return !directory_.empty(); }

 private:
  static bool Write(const std::string& path, const std::string& text) {
    std::ofstream file(path);
    file << text << std::flush;
    return static_cast<bool>(file);
  }
  // This process's cgroup under `mount` (v2's line, or v1's with the cpu
  // controller, of /proc/self/cgroup); the mount itself where that path is not
  // below it (a container whose own cgroup is the mount).
  static std::string OwnCgroup(const std::string& mount, bool v2) {
    std::ifstream file("/proc/self/cgroup");
    for (std::string line; std::getline(file, line);) {
      const size_t first = line.find(':'), second = line.find(':', first + 1);
      if (first == std::string::npos || second == std::string::npos) continue;
      const std::string controllers = "," + line.substr(first + 1, second - first - 1) + ",";
      if (v2 ? controllers != ",," : controllers.find(",cpu,") == std::string::npos) continue;
      const std::string path = line.substr(second + 1);
      if (path.size() > 1 && std::filesystem::is_directory(mount + path)) return mount + path;
    }
    return mount;
  }
  bool Enter(const std::string& parent, const std::string& name,
             const std::vector<std::pair<std::string, std::string>>& limits) {
    const std::string directory = parent + "/" + name;
    std::error_code error;
    if (!std::filesystem::create_directory(directory, error)) return false;
    bool ok = true;
    for (const auto& [file, value] : limits) ok = ok && Write(directory + "/" + file, value);
    if (ok && Write(directory + "/cgroup.procs", std::to_string(getpid()))) {
      parent_ = parent;
      directory_ = directory;
      return true;
    }
    std::filesystem::remove(directory, error);
    return false;
  }

  std::string parent_, directory_;  // the process's own cgroup, and the one made below it
};

TEST(ComputeTeamUnderCgroupLimit, TheTeamHasAsManyThreadsAsTheLimitAllows) {
  if (kThreadSanitizer) GTEST_SKIP() << "no OpenMP team under ThreadSanitizer";
  const char* requested = std::getenv("OMP_NUM_THREADS");
  if (requested != nullptr && *requested != '\0') GTEST_SKIP() << "OMP_NUM_THREADS sizes the team";
  if (omp_get_max_threads() < 2) GTEST_SKIP() << "one CPU: a one-CPU limit changes nothing";
  const auto cgroups = [] {
    std::ifstream file("/proc/self/cgroup");
    return std::string(std::istreambuf_iterator<char>(file), {});
  };
  const std::string before = cgroups();
  {
    OneCpuCgroup cgroup;
    if (!cgroup.entered()) GTEST_SKIP() << "cannot create a cgroup with a CPU limit here";
    setenv("CANOPY_DEVICE_COUNT", "1", 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << RecentMessage();
    EXPECT_EQ(DeviceCores(), 1) << "the device reports the limit's one CPU";
    // libgomp still offers a team per CPU of the affinity mask; the engine's has one thread,
    // from its first task on: kernels split their work by omp_get_max_threads()
    // before they prepare the team (a first parallel copy forked a full team).
    EXPECT_GE(omp_get_max_threads(), 2);
    EXPECT_EQ(PlacementOn(0, false).team.size(), 1U) << "before the team is prepared";
    EXPECT_EQ(PlacementOn(0, true).team.size(), 1U) << "once it is prepared";
    aclFinalize();
    unsetenv("CANOPY_DEVICE_COUNT");
  }
  EXPECT_EQ(cgroups(), before) << "the process is back in its own cgroups";
}

}  // namespace
