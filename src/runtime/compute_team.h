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
// Why: once any other thread of the process has forked an OpenMP team (a
// client using OpenMP, or oneDNN called from the client's thread), libgomp has
// more threads than CPUs and lets idle workers spin only a hundred pauses
// before they sleep; every fork and barrier then wakes a sleeping worker, and
// the scheduler tends to wake it on the CPU of the thread that woke it. The
// team's two halves then time-share one CPU while the other idles: oneDNN's
// 512^3 f32 matmul took 1.05 ms instead of 0.55 on the 2-vCPU machine
// (docs/perf.md, "OpenMP teams of other threads"). Bound threads cannot stack.
//
// Nothing is bound when CANOPY_BIND_THREADS=0, when OMP_PROC_BIND already
// binds, when the team would have more threads than the process may use CPUs,
// or with fewer than two threads. Returns a one-line account for CANOPY_VERBOSE.
std::string BindComputeTeam(int32_t device_id);

}  // namespace canopy::runtime

#endif  // CANOPY_RUNTIME_COMPUTE_TEAM_H_
