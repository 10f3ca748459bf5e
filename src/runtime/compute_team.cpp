#include "compute_team.h"

#include <omp.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include "common/cpu_quota.h"
#include "common/env.h"
#include "openmp_policy.h"

namespace canopy::runtime {
namespace {

std::vector<int> AllowedCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

// The engine thread's CPUs when the first team was bound: those its creator,
// a client thread, had.
std::once_flag process_cpus_once;
cpu_set_t process_cpus;
std::atomic<bool> process_cpus_known{false};

void RememberProcessCpus() {
  std::call_once(process_cpus_once, [] {
    CPU_ZERO(&process_cpus);
    if (sched_getaffinity(0, sizeof(process_cpus), &process_cpus) == 0) process_cpus_known.store(true);
  });
}

bool BindCurrentThread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

}  // namespace

std::string SizeComputeTeam() {
  if (!kOpenMpAllowed) return "no OpenMP team under ThreadSanitizer";
  const char* requested = std::getenv("OMP_NUM_THREADS");
  if (requested != nullptr && *requested != '\0') return "team size from OMP_NUM_THREADS";
  // libgomp's default already counts the process's CPUs (its affinity mask
  // when the process started); only the cgroup limit is new to it. The engine
  // thread's own mask is no measure: under OMP_PROC_BIND libgomp binds the
  // client's thread, which created this one, to a single CPU.
  const int threads = omp_get_max_threads();
  const std::optional<int> limit = ProcessCgroupCpuLimit();
  if (!limit || *limit >= threads) return "team of " + std::to_string(threads) + " thread(s)";
  omp_set_num_threads(*limit);
  return "team of " + std::to_string(*limit) + " thread(s) (the cgroup CPU limit; libgomp would start " +
         std::to_string(threads) + ")";
}

std::string BindComputeTeam(int32_t device_id) {
  if (!kOpenMpAllowed) return "compute threads not bound (no OpenMP team under ThreadSanitizer)";
  if (!EnvSwitch("CANOPY_BIND_THREADS", true)) return "compute threads not bound (CANOPY_BIND_THREADS=0)";
  if (omp_get_proc_bind() != omp_proc_bind_false) return "compute threads not bound (OMP_PROC_BIND binds them)";
  const std::vector<int> cpus = AllowedCpus();
  const int threads = omp_get_max_threads();
  const auto available = static_cast<int>(cpus.size());
  if (threads < 2 || threads > available) {
    return "compute threads not bound (" + std::to_string(threads) + " threads, " + std::to_string(available) +
           " CPUs)";
  }
  RememberProcessCpus();
  // libgomp hands a master's later teams the same pool threads in the same
  // order, so binding them once binds every team this engine forks.
  std::atomic<int> bound{0};
#pragma omp parallel num_threads(threads)
  {
    // From the last CPU down: a client that binds its own threads (OMP_PROC_BIND)
    // puts its main thread on the first, and the engine should not share it.
    const int slot = available - 1 - (omp_get_thread_num() + device_id) % available;
    if (BindCurrentThread(cpus[static_cast<size_t>(slot)])) bound.fetch_add(1);
  }
  return "compute threads: " + std::to_string(bound.load()) + " of " + std::to_string(threads) +
         " bound to their own CPU";
}

void UnbindCurrentThread() {
  if (!process_cpus_known.load()) return;
  pthread_setaffinity_np(pthread_self(), sizeof(process_cpus), &process_cpus);
}

}  // namespace canopy::runtime
