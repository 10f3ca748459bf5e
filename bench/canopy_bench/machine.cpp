#include "machine.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "x86_intrinsics.h"

namespace canopy_bench {
namespace {

using Clock = std::chrono::steady_clock;

// Independent accumulator chains per thread: more than FMA latency x FMA pipes
// (4 x 2 on current cores), so the loop is throughput-bound, not latency-bound.
constexpr int kAccumulators = 16;
// Inner iterations per timed region: a few milliseconds. Many short regions and
// the best of them: on a shared machine some land in quiet moments, and the
// ceiling is what the hardware can do, not what it did while others ran.
constexpr int64_t kFmaIterations = int64_t{1} << 19;
constexpr int kFmaTrials = 60;
constexpr auto kFmaPause = std::chrono::milliseconds(5);  // spreads the trials over time
// STREAM reports the best of its trials too; each trial here moves 256-384 MiB,
// and a pause between trials spreads them over a few seconds of a shared machine.
constexpr int kStreamTrials = 30;
constexpr auto kStreamPause = std::chrono::milliseconds(30);
// Each STREAM buffer: 128 MiB, four times a 32 MiB L3, so no level of cache helps.
constexpr int64_t kStreamElements = int64_t{32} << 20;
constexpr int kFloatsPerZmm = 16;
constexpr int kFloatsPerYmm = 8;
constexpr int kBf16PairsPerZmm = 16;  // vdpbf16ps: 16 lanes, each a dot product of two bf16 pairs
constexpr double kFlopsPerFma = 2;
constexpr double kFlopsPerBf16Lane = 4;  // two multiplies and two adds per lane

double SecondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// (_mm512_reduce_add_ps trips GCC 12's -Wuninitialized inside its own header.)
__attribute__((target("avx512f"))) float SumLanes(__m512 v) {
  alignas(64) float lanes[kFloatsPerZmm];
  _mm512_store_ps(lanes, v);
  float total = 0;
  for (float lane : lanes) total += lane;
  return total;
}

__attribute__((target("avx512f"))) float FmaLoopAvx512(int64_t iterations) {
  __m512 acc[kAccumulators];
  const __m512 scale = _mm512_set1_ps(0.999999f), offset = _mm512_set1_ps(1e-6f);
#pragma GCC unroll 16
  for (int j = 0; j < kAccumulators; ++j) acc[j] = _mm512_set1_ps(static_cast<float>(j));
  for (int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < kAccumulators; ++j) acc[j] = _mm512_fmadd_ps(acc[j], scale, offset);
  }
  __m512 sum = acc[0];
#pragma GCC unroll 16
  for (int j = 1; j < kAccumulators; ++j) sum = _mm512_add_ps(sum, acc[j]);
  return SumLanes(sum);
}

__attribute__((target("avx2,fma"))) float FmaLoopAvx2(int64_t iterations) {
  __m256 acc[kAccumulators];
  const __m256 scale = _mm256_set1_ps(0.999999f), offset = _mm256_set1_ps(1e-6f);
#pragma GCC unroll 16
  for (int j = 0; j < kAccumulators; ++j) acc[j] = _mm256_set1_ps(static_cast<float>(j));
  for (int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < kAccumulators; ++j) acc[j] = _mm256_fmadd_ps(acc[j], scale, offset);
  }
  __m256 sum = acc[0];
#pragma GCC unroll 16
  for (int j = 1; j < kAccumulators; ++j) sum = _mm256_add_ps(sum, acc[j]);
  alignas(32) float lanes[kFloatsPerYmm];
  _mm256_store_ps(lanes, sum);
  float total = 0;
  for (float lane : lanes) total += lane;
  return total;
}

__attribute__((target("avx512f,avx512bf16"))) float Bf16DotLoop(int64_t iterations) {
  __m512 acc[kAccumulators];
  // Small operands keep the sums finite over millions of iterations.
  const __m512bh a = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-3f), _mm512_set1_ps(1e-3f));
  const __m512bh b = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-3f), _mm512_set1_ps(1e-3f));
#pragma GCC unroll 16
  for (int j = 0; j < kAccumulators; ++j) acc[j] = _mm512_set1_ps(static_cast<float>(j));
  for (int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < kAccumulators; ++j) acc[j] = _mm512_dpbf16_ps(acc[j], a, b);
  }
  __m512 sum = acc[0];
#pragma GCC unroll 16
  for (int j = 1; j < kAccumulators; ++j) sum = _mm512_add_ps(sum, acc[j]);
  return SumLanes(sum);
}

// Runs `loop` on every OpenMP thread at once, many times; each thread times its
// own loop and keeps its best rate, and the peak is the sum of those. A thread
// preempted by another process spoils only its own sample of that trial.
template <typename Loop>
double ParallelGflops(Loop loop, double flops_per_iteration_per_thread, int threads) {
  std::vector<double> best(static_cast<size_t>(threads), 0.0);
  volatile float sink = 0;
  constexpr int kWarmupRegions = 20;  // brings the cores to their sustained clock first
  for (int trial = 0; trial < kWarmupRegions + kFmaTrials; ++trial) {
    float total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
      const auto start = Clock::now();
      total += loop(kFmaIterations);
      const double rate = flops_per_iteration_per_thread * static_cast<double>(kFmaIterations) / SecondsSince(start);
      if (trial >= kWarmupRegions) {
        double& mine = best[static_cast<size_t>(omp_get_thread_num())];
        mine = std::max(mine, rate);
      }
    }
    sink = sink + total;
    if (trial >= kWarmupRegions) std::this_thread::sleep_for(kFmaPause);
  }
  double sum = 0;
  for (double rate : best) sum += rate;
  return sum * 1e-9;
}

// Static contiguous ranges per thread, as Canopy's kernels and the references split work.
#define BENCH_STATIC_RANGE(total, begin, end)                                 \
  const int64_t begin = (total)*omp_get_thread_num() / omp_get_num_threads(); \
  const int64_t end = (total) * (omp_get_thread_num() + 1) / omp_get_num_threads()

__attribute__((target("avx512f"))) void CopyAvx512(const float* a, float* b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) b[i] = a[i];
}
__attribute__((target("avx512f"))) void TriadAvx512(float* a, const float* b, const float* c, float s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
void CopyPortable(const float* a, float* b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) b[i] = a[i];
}
void TriadPortable(float* a, const float* b, const float* c, float s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

struct Bandwidth {
  double copy_gbps = 0, triad_gbps = 0;
};

Bandwidth MeasureBandwidth(int threads, bool avx512) {
  constexpr size_t kAlignment = 64;
  const size_t bytes = sizeof(float) * kStreamElements;
  auto allocate = [&] {
    return std::unique_ptr<float, decltype(&std::free)>(static_cast<float*>(std::aligned_alloc(kAlignment, bytes)),
                                                        &std::free);
  };
  auto a = allocate(), b = allocate(), c = allocate();
  float* pa = a.get();
  float* pb = b.get();
  float* pc = c.get();
  // First touch by the thread that later streams each range.
#pragma omp parallel num_threads(threads)
  {
    BENCH_STATIC_RANGE(kStreamElements, begin, end);
    for (int64_t i = begin; i < end; ++i) {
      pa[i] = 1.0f;
      pb[i] = 2.0f;
      pc[i] = 0.5f;
    }
  }
  Bandwidth result;
  for (int trial = 0; trial < kStreamTrials; ++trial) {
    std::this_thread::sleep_for(kStreamPause);
    auto start = Clock::now();
#pragma omp parallel num_threads(threads)
    {
      BENCH_STATIC_RANGE(kStreamElements, begin, end);
      if (avx512) {
        CopyAvx512(pa + begin, pb + begin, end - begin);
      } else {
        CopyPortable(pa + begin, pb + begin, end - begin);
      }
    }
    result.copy_gbps = std::max(result.copy_gbps, 2.0 * static_cast<double>(bytes) / SecondsSince(start) * 1e-9);
    start = Clock::now();
#pragma omp parallel num_threads(threads)
    {
      BENCH_STATIC_RANGE(kStreamElements, begin, end);
      if (avx512) {
        TriadAvx512(pa + begin, pb + begin, pc + begin, 3.0f, end - begin);
      } else {
        TriadPortable(pa + begin, pb + begin, pc + begin, 3.0f, end - begin);
      }
    }
    result.triad_gbps = std::max(result.triad_gbps, 3.0 * static_cast<double>(bytes) / SecondsSince(start) * 1e-9);
  }
  return result;
}

}  // namespace

MachinePeak MeasureMachine() {
  MachinePeak machine;
  machine.threads = omp_get_max_threads();
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx512) {
    machine.isa = "avx512";
    machine.f32_gflops = ParallelGflops(FmaLoopAvx512, kAccumulators * kFloatsPerZmm * kFlopsPerFma, machine.threads);
  } else if (avx2) {
    machine.isa = "avx2";
    machine.f32_gflops = ParallelGflops(FmaLoopAvx2, kAccumulators * kFloatsPerYmm * kFlopsPerFma, machine.threads);
  }
  if (avx512 && __builtin_cpu_supports("avx512bf16")) {
    machine.bf16_gflops =
        ParallelGflops(Bf16DotLoop, kAccumulators * kBf16PairsPerZmm * kFlopsPerBf16Lane, machine.threads);
  }
  const Bandwidth bandwidth = MeasureBandwidth(machine.threads, avx512);
  machine.copy_gbps = bandwidth.copy_gbps;
  machine.triad_gbps = bandwidth.triad_gbps;
  machine.measured = true;
  return machine;
}

void PrintMachine(const MachinePeak& machine) {
  std::printf("machine: %d threads (omp_get_max_threads), %s\n", machine.threads, machine.isa.c_str());
  std::printf("machine: peak f32 FMA %.1f GFLOP/s", machine.f32_gflops);
  if (machine.bf16_gflops > 0) std::printf(", peak bf16 dot %.1f GFLOP/s", machine.bf16_gflops);
  std::printf("\nmachine: memory bandwidth copy %.1f GB/s, triad %.1f GB/s (best of %d, %lld MiB buffers)\n",
              machine.copy_gbps, machine.triad_gbps, kStreamTrials,
              static_cast<long long>(kStreamElements * sizeof(float) >> 20));
}

}  // namespace canopy_bench
