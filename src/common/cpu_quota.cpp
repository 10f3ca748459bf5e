#include "cpu_quota.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

namespace canopy {
namespace {

// The first line of a small file under /sys or /proc; empty when it cannot be read.
std::string FirstLine(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  if (file) std::getline(file, line);
  return line;
}

std::optional<int64_t> ParseInteger(const std::string& text) {
  std::istringstream in(text);
  int64_t value = 0;
  if (!(in >> value)) return std::nullopt;
  return value;
}

// cgroup v2: cpu.max holds "<quota> <period>", the quota "max" when unlimited.
std::optional<int> LimitOfV2(const std::string& directory) {
  std::istringstream in(FirstLine(directory + "/cpu.max"));
  std::string quota, period;
  if (!(in >> quota >> period) || quota == "max") return std::nullopt;
  const auto q = ParseInteger(quota), p = ParseInteger(period);
  if (!q || !p) return std::nullopt;
  return CpusOfQuota(*q, *p);
}

// cgroup v1: cpu.cfs_quota_us (-1 when unlimited) over cpu.cfs_period_us.
std::optional<int> LimitOfV1(const std::string& directory) {
  const auto quota = ParseInteger(FirstLine(directory + "/cpu.cfs_quota_us"));
  const auto period = ParseInteger(FirstLine(directory + "/cpu.cfs_period_us"));
  if (!quota || !period) return std::nullopt;
  return CpusOfQuota(*quota, *period);
}

std::optional<int> Smaller(std::optional<int> a, std::optional<int> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// The limits along `path` (a cgroup path, "/a/b") under `mount`, and at the
// mount itself. Inside a container the mount often is the container's own
// cgroup while /proc/self/cgroup names the host's path to it, which then does
// not exist below the mount: the mount's own files still apply.
template <typename Limit>
std::optional<int> LimitAlong(const std::string& mount, std::string path, Limit limit) {
  std::optional<int> smallest = limit(mount);
  while (!path.empty() && path != "/" && path.front() == '/') {
    smallest = Smaller(smallest, limit(mount + path));
    path.resize(path.find_last_of('/'));
  }
  return smallest;
}

}  // namespace

std::optional<int> CpusOfQuota(int64_t quota, int64_t period) {
  if (quota <= 0 || period <= 0) return std::nullopt;
  const int64_t cpus = quota / period + (quota % period != 0 ? 1 : 0);  // no overflow near INT64_MAX
  return static_cast<int>(std::clamp<int64_t>(cpus, 1, 1 << 20));
}

std::optional<int> CgroupCpuLimit(const std::string& root, const std::string& self_cgroup) {
  std::ifstream file(self_cgroup);
  std::optional<int> smallest;
  // Lines "<id>:<controllers>:<path>": v2's has id 0 and no controllers; v1's
  // CPU controller is "cpu", often mounted together with cpuacct.
  for (std::string line; std::getline(file, line);) {
    const size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    if (controllers.empty()) {
      smallest = Smaller(smallest, LimitAlong(root, path, LimitOfV2));
      continue;
    }
    std::vector<std::string> names;
    std::istringstream list(controllers);
    for (std::string name; std::getline(list, name, ',');) names.push_back(name);
    if (std::find(names.begin(), names.end(), "cpu") == names.end()) continue;
    for (const std::string& folder : {controllers, std::string("cpu"), std::string("cpu,cpuacct")}) {
      std::string mount = root;
      mount += '/';
      mount += folder;
      smallest = Smaller(smallest, LimitAlong(mount, path, LimitOfV1));
    }
  }
  return smallest;
}

std::optional<int> ProcessCgroupCpuLimit() {
  std::ifstream file("/proc/self/cgroup");
  std::string cgroups(std::istreambuf_iterator<char>(file), {});
  static std::mutex lock;
  static std::optional<std::string> seen;
  static std::optional<int> limit;
  const std::lock_guard hold(lock);
  if (seen != cgroups) {
    limit = CgroupCpuLimit();
    seen = std::move(cgroups);
  }
  return limit;
}

int UsableCpuCount() {
  int cpus = 0;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) cpus = CPU_COUNT(&set);
  if (cpus <= 0) cpus = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  if (const std::optional<int> limit = ProcessCgroupCpuLimit()) cpus = std::min(cpus, *limit);
  return cpus;
}

}  // namespace canopy
