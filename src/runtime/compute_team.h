#ifndef CANOPY_RUNTIME_COMPUTE_TEAM_H_
#define CANOPY_RUNTIME_COMPUTE_TEAM_H_

#include <cstdint>
#include <string>

namespace canopy::runtime {

// Binds each thread of the calling device engine's OpenMP team (the engine
// itself and the workers libgomp keeps for it) to its own CPU: the engine to
// the process's last allowed CPU, its workers to the ones below, all shifted
// down by `device_id` so that two devices' engines do not start on one CPU.
//
// Why: once another thread of the process has forked an OpenMP team too (a
// client using OpenMP, or calling oneDNN itself), libgomp manages more threads
// than there are CPUs and lets idle workers spin only briefly before they
// sleep; every fork and barrier then wakes a sleeping worker, and the
// scheduler often wakes it on the CPU of the thread that woke it, where it
// stays. The team's halves then time-share one CPU while the other idles: a
// 512^3 f32 aclnnMm took 1.07-1.13 ms instead of 0.53-0.56 on the 2-vCPU
// machine in most processes; bound, 0.65-0.70 (docs/perf.md, "OpenMP teams of
// other threads"). Bound threads cannot stack.
//
// Nothing is bound when CANOPY_BIND_THREADS=0, when OMP_PROC_BIND already
// binds, when the team would have more threads than the process may use CPUs,
// or with fewer than two threads. Returns a one-line account for CANOPY_VERBOSE.
std::string BindComputeTeam(int32_t device_id);

// Gives the calling thread the CPUs the process could use before any engine
// bound its team (a no-op until then). For runtime threads an engine thread
// starts, such as the host-function pool's workers: a new thread inherits its
// creator's binding, which would pin every host function (and every thread
// a client starts from one) to the engine's single CPU.
void UnbindCurrentThread();

// Caps the calling engine thread's OpenMP teams (its own, and oneDNN's forked
// from it) at the process's cgroup CPU limit (common/cpu_quota.h): libgomp
// sizes them by the affinity mask alone, which such a limit does not narrow.
// OMP_NUM_THREADS, where set, decides instead. Sets the thread's team size and
// forks nothing, so the engine calls it as it starts, before any kernel splits
// its work by omp_get_max_threads(); returns a one-line account for CANOPY_VERBOSE.
std::string SizeComputeTeam();

}  // namespace canopy::runtime

#endif  // CANOPY_RUNTIME_COMPUTE_TEAM_H_
