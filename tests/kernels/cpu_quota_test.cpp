// The cgroup CPU limit that sizes the compute team (common/cpu_quota.h), read
// from fake cgroup trees: v2's cpu.max and v1's CFS quota, along the process's
// cgroup path and above it, a container whose own cgroup is the mount, and none.
#include "common/cpu_quota.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

namespace {

namespace fs = std::filesystem;
using canopy::CgroupCpuLimit;
using canopy::CpusOfQuota;

class FakeCgroupTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("canopy_cgroup_" + std::to_string(getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // Writes `text` to root/<relative>, making its folders.
  void Write(const std::string& relative, const std::string& text) const {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text << "\n";
  }
  std::string Self() const { return (root_ / "self_cgroup").string(); }
  std::string Root() const { return (root_ / "sys").string(); }

  fs::path root_;
};

TEST(CpusOfQuota, RoundsUpAndTreatsNonPositiveAsNoLimit) {
  EXPECT_EQ(CpusOfQuota(200000, 100000), 2);
  EXPECT_EQ(CpusOfQuota(250000, 100000), 3);
  EXPECT_EQ(CpusOfQuota(1000, 100000), 1);
  EXPECT_EQ(CpusOfQuota(-1, 100000), std::nullopt);
  EXPECT_EQ(CpusOfQuota(0, 100000), std::nullopt);
  EXPECT_EQ(CpusOfQuota(100000, 0), std::nullopt);
  // A garbled quota near INT64_MAX does not overflow into a small count.
  EXPECT_EQ(CpusOfQuota(std::numeric_limits<int64_t>::max(), 2), 1 << 20);
}

TEST_F(FakeCgroupTree, V2TakesTheSmallestLimitOnThePathAndAbove) {
  Write("self_cgroup", "0::/user.slice/job");
  Write("sys/cpu.max", "max 100000");
  Write("sys/user.slice/cpu.max", "350000 100000");
  Write("sys/user.slice/job/cpu.max", "max 100000");
  EXPECT_EQ(CgroupCpuLimit(Root(), Self()), 4);
  Write("sys/user.slice/job/cpu.max", "150000 100000");
  EXPECT_EQ(CgroupCpuLimit(Root(), Self()), 2);
}

TEST_F(FakeCgroupTree, V2ContainerWhoseOwnCgroupIsTheMount) {
  // /proc/self/cgroup names the host's path; below the container's mount it does not exist.
  Write("self_cgroup", "0::/system.slice/docker-1234.scope");
  Write("sys/cpu.max", "200000 100000");
  EXPECT_EQ(CgroupCpuLimit(Root(), Self()), 2);
}

TEST_F(FakeCgroupTree, V1ReadsTheCfsQuotaOfTheCpuController) {
  Write("self_cgroup", "12:memory:/kubepods/pod1\n4:cpu,cpuacct:/kubepods/pod1\n2:cpuset:/kubepods/pod1");
  Write("sys/cpu,cpuacct/cpu.cfs_quota_us", "-1");
  Write("sys/cpu,cpuacct/cpu.cfs_period_us", "100000");
  Write("sys/cpu,cpuacct/kubepods/pod1/cpu.cfs_quota_us", "300000");
  Write("sys/cpu,cpuacct/kubepods/pod1/cpu.cfs_period_us", "100000");
  EXPECT_EQ(CgroupCpuLimit(Root(), Self()), 3);
}

TEST_F(FakeCgroupTree, V1CpuMountedOnItsOwn) {
  Write("self_cgroup", "3:cpuacct:/\n2:cpu:/");
  Write("sys/cpu/cpu.cfs_quota_us", "50000");
  Write("sys/cpu/cpu.cfs_period_us", "100000");
  EXPECT_EQ(CgroupCpuLimit(Root(), Self()), 1);
}

TEST_F(FakeCgroupTree, NoLimitAnywhere) {
  Write("self_cgroup", "0::/\n2:cpu:/");
  Write("sys/cpu.max", "max 100000");
  Write("sys/cpu/cpu.cfs_quota_us", "-1");
  Write("sys/cpu/cpu.cfs_period_us", "100000");
  EXPECT_EQ(CgroupCpuLimit(Root(), Self()), std::nullopt);
  // Nothing readable at all: no limit, not a failure.
  EXPECT_EQ(CgroupCpuLimit(Root() + "/missing", Self() + ".missing"), std::nullopt);
  // A garbled file is no limit either.
  Write("sys/cpu.max", "lots");
  EXPECT_EQ(CgroupCpuLimit(Root(), Self()), std::nullopt);
  // Nor are garbled lines: a path that is not absolute, fields missing.
  Write("sys/cpu.max", "100000 100000");
  Write("self_cgroup", "0::relative/path\n0:\nnonsense\n2:cpu:no-slash");
  EXPECT_EQ(CgroupCpuLimit(Root(), Self()), 1);
}

TEST(UsableCpuCount, IsTheAffinityMaskCappedByTheLimit) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  int expected = CPU_COUNT(&set);
  if (const auto limit = CgroupCpuLimit()) expected = std::min(expected, *limit);
  EXPECT_EQ(canopy::UsableCpuCount(), expected);
  EXPECT_GE(canopy::UsableCpuCount(), 1);
}

}  // namespace
