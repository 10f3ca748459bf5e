#ifndef CANOPY_COMMON_CPU_QUOTA_H_
#define CANOPY_COMMON_CPU_QUOTA_H_

#include <cstdint>
#include <optional>
#include <string>

namespace canopy {

// How many CPUs Canopy computes on: the CPUs the process may run on (its
// affinity mask), capped by a cgroup CPU limit where one is set.
//
// Why the limit: a container started with `docker run --cpus=2`, or a pod with a
// CPU limit, still sees every CPU of the host in its affinity mask, and libgomp
// sizes its teams by that mask. On a 64-CPU host such a team has 64 threads
// sharing two CPUs' worth of time; the kernel throttles the whole process for
// the rest of each period once the spinning workers have used it up. Sized to
// the limit, the team does the same work without waiting out the throttle.
int UsableCpuCount();

// The cgroup CPU limit of this process, in whole CPUs (rounded up), or nullopt
// where none is set: cgroup v2's cpu.max and v1's cpu.cfs_quota_us and
// cpu.cfs_period_us, in the process's own cgroup (from /proc/self/cgroup) and
// every cgroup above it under `root`, the smallest of them.
std::optional<int> CgroupCpuLimit(const std::string& root = "/sys/fs/cgroup",
                                  const std::string& self_cgroup = "/proc/self/cgroup");

// CgroupCpuLimit() of this process, read again only when /proc/self/cgroup
// changes (the process moved): the limit files along a deep path cost tens of
// microseconds, and core-count queries come often. A limit changed in place,
// in the same cgroup, is not seen.
std::optional<int> ProcessCgroupCpuLimit();

// ceil(quota / period), at least 1; nullopt for no limit (a quota <= 0, as v1's -1,
// or a period <= 0).
std::optional<int> CpusOfQuota(int64_t quota, int64_t period);

}  // namespace canopy

#endif  // CANOPY_COMMON_CPU_QUOTA_H_
