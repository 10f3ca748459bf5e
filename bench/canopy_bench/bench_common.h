// What every canopy-bench driver shares: the settings parsed from the command
// line, the session that collects results (CSV, roofline), dtypes as the bench
// sees them, timing, random data and thin wrappers over the public acl API.
// Drivers use Canopy only through its public headers, exactly as a client does.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "machine.h"

namespace canopy_bench {

// ---- failure handling -----------------------------------------------------------

// A bench bug or a Canopy error outside the measured op: print and stop.
[[noreturn]] void Die(const char* format, ...) __attribute__((format(printf, 1, 2)));

#define BENCH_CHECK_ACL(expr)                                                                                      \
  do {                                                                                                             \
    const auto bench_status_ = (expr);                                                                             \
    if (bench_status_ != 0)                                                                                        \
      ::canopy_bench::Die("%s:%d: %s returned %d: %s", __FILE__, __LINE__, #expr, static_cast<int>(bench_status_), \
                          aclGetRecentErrMsg());                                                                   \
  } while (0)

// ---- settings -------------------------------------------------------------------

enum class Mode { kCorrectness, kPerformance };

// benchdnn style: options set state that applies to every later problem on the
// command line (or in a batch file) until changed; a bare word is a problem.
struct Settings {
  static constexpr int kDefaultRepetitions = 15;
  static constexpr int kDefaultWarmup = 3;
  static constexpr double kDefaultMinSeconds = 0.4;
  static constexpr uint64_t kFreshSeed = 0;

  std::string driver = "matmul";
  std::vector<std::string> ops;  // empty: the driver's default ops
  std::vector<std::string> dtypes = {"f32"};
  std::vector<std::string> src_dtypes;  // --sdt (cast); empty: --dt
  std::vector<std::string> dst_dtypes;  // --ddt (cast); empty: --dt
  std::string bias = "n";               // addmm: bias of shape [N] ("n") or [M, N] ("mn")
  int8_t cube_math_type = 0;            // matmul ops' cubeMathType (0: KEEP_DTYPE)
  Mode mode = Mode::kPerformance;
  int repetitions = kDefaultRepetitions;
  int warmup = kDefaultWarmup;
  // Short problems repeat until each side has run this long: on a shared machine
  // the samples then spread over enough time to meet quiet moments.
  double min_seconds = kDefaultMinSeconds;
  uint64_t seed = kFreshSeed;  // 0: fresh random data, seed printed in reproducers
  bool reference = true;       // run the standalone reference next to Canopy
};

// The command line that reruns one problem alone (printed for every failure).
std::string Reproducer(const Settings& settings, const std::string& op, const std::string& dtype_options, uint64_t seed,
                       const std::string& problem);

// ---- results --------------------------------------------------------------------

struct Result {
  std::string driver, op, dtype, problem;
  std::string status = "ok";  // ok | fail | skip | error
  double time_us = 0;         // Canopy: median
  double best_us = 0;         // Canopy: fastest repetition (noise only ever adds time)
  double wall_us = 0;         // Canopy: median of phase 1 + phase 2 + sync, wall clock
  double reference_us = 0;    // reference: median (0: none)
  double reference_best_us = 0;
  double paired_ratio = 0;  // median over adjacent (Canopy, reference) pairs of their rate ratio
  std::string reference_name;
  double flops = 0;        // per run
  double bytes = 0;        // per run, minimum traffic
  double peak_gflops = 0;  // the compute ceiling the % refers to
  double peak_gbps = 0;    // the bandwidth ceiling the % refers to
  std::string note;
  std::string path;  // the kernels Canopy's plan runs (RunCanopyOnce)

  // Canopy's rate over the reference's (> 1: Canopy is faster), of the medians and of the best runs.
  double Ratio() const { return reference_us > 0 && time_us > 0 ? reference_us / time_us : 0; }
  double BestRatio() const { return reference_best_us > 0 && best_us > 0 ? reference_best_us / best_us : 0; }
  double Gflops() const { return time_us > 0 ? flops / time_us * 1e-3 : 0; }
  double Gbps() const { return time_us > 0 ? bytes / time_us * 1e-3 : 0; }
  double ReferenceGflops() const { return reference_us > 0 ? flops / reference_us * 1e-3 : 0; }
  double ReferenceGbps() const { return reference_us > 0 ? bytes / reference_us * 1e-3 : 0; }
  double Intensity() const { return bytes > 0 ? flops / bytes : 0; }
  // The roofline at this arithmetic intensity: min(compute peak, intensity x bandwidth).
  double RooflineGflops() const;
  bool MemoryBound() const { return Intensity() * peak_gbps < peak_gflops; }
  double PercentOfRoofline() const {
    const double ceiling = RooflineGflops();
    return ceiling > 0 ? 100 * Gflops() / ceiling : 0;
  }
};

class Session {
 public:
  const MachinePeak& machine() const { return machine_; }
  void set_machine(const MachinePeak& machine) { machine_ = machine; }
  void Record(const Result& result);
  const std::vector<Result>& results() const { return results_; }
  int failures() const { return failures_; }

  std::string csv_path;
  std::string roofline_path;

  void WriteCsv() const;

 private:
  MachinePeak machine_;
  std::vector<Result> results_;
  int failures_ = 0;
};

// ---- dtypes -----------------------------------------------------------------------

struct DtypeInfo {
  const char* name;
  aclDataType acl;
  size_t size;
  int mantissa_bits;  // including the implicit bit; 0 for integers
  bool floating;
};

// Null when the bench does not know the name.
const DtypeInfo* FindDtype(const std::string& name);
const DtypeInfo& DtypeOf(const std::string& name);  // dies when unknown
// 2^-p: half an ulp relative to the value, the rounding error of one operation.
double UnitRoundoff(const DtypeInfo& dtype);
// The smallest positive normal number (the scale below which errors are absolute).
double SmallestNormal(const DtypeInfo& dtype);

double LoadDouble(const DtypeInfo& dtype, const void* base, size_t index);
// Rounds to nearest even (saturating for integers).
void StoreDouble(const DtypeInfo& dtype, void* base, size_t index, double value);

// ---- data ---------------------------------------------------------------------------

// A fast, reproducible generator (splitmix64).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  double Uniform(double low, double high);

 private:
  uint64_t state_;
};

uint64_t FreshSeed();

// Host data in a dtype plus its exact values as doubles (what the float64 reference reads).
struct HostTensor {
  const DtypeInfo* dtype = nullptr;
  std::vector<int64_t> shape;
  std::vector<unsigned char> bytes;
  std::vector<double> values;
  int64_t Elements() const;
};

// Values uniform in [low, high), rounded to the dtype.
HostTensor RandomTensor(const DtypeInfo& dtype, const std::vector<int64_t>& shape, Random& random, double low,
                        double high);

// ---- device side ------------------------------------------------------------------------

// aclrtMalloc'd memory, freed on destruction.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  ~DeviceBuffer();

  void* get() const { return data_; }
  size_t bytes() const { return bytes_; }
  // Grows (never shrinks) to at least `bytes`.
  void Reserve(size_t bytes);
  void Upload(const HostTensor& host);
  void Download(void* host, size_t bytes) const;
  void Poison();  // every byte 0xff: NaN in every float dtype

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

// An aclTensor over a contiguous device buffer, destroyed with the object.
class Tensor {
 public:
  Tensor(const std::vector<int64_t>& shape, aclDataType dtype, void* data, aclFormat format = ACL_FORMAT_ND);
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  ~Tensor();
  aclTensor* get() const { return tensor_; }

 private:
  aclTensor* tensor_;
};

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape);

// The process-wide acl setup: aclInit, device 0, one stream, two timing events.
class AclSession {
 public:
  static AclSession& Get();
  aclrtStream stream() const { return stream_; }
  aclrtEvent start_event() const { return start_; }
  aclrtEvent end_event() const { return end_; }

 private:
  AclSession();
  aclrtStream stream_ = nullptr;
  aclrtEvent start_ = nullptr;
  aclrtEvent end_ = nullptr;
};

// One Canopy op as a client calls it: phase 1 builds the executor, phase 2 enqueues it.
struct CanopyCall {
  std::function<aclnnStatus(uint64_t*, aclOpExecutor**)> phase1;
  std::function<aclnnStatus(void*, uint64_t, aclOpExecutor*, aclrtStream)> phase2;
};

// A call of the registered op `name` (canopy/canopy_ops.h; the match ignores
// case, and "bmm" names BatchMatMul), its arguments taken in prototype order:
// tensors from `tensors`, scalars from `scalars`, integers and enums from
// `integers`. Null (with `error` set) when there is no such op or a list runs short.
std::unique_ptr<CanopyCall> RegisteredCall(const std::string& name, const std::vector<aclTensor*>& tensors,
                                           const std::vector<const aclScalar*>& scalars,
                                           const std::vector<int64_t>& integers, std::string& error);
// The same, with the op's other pointer arguments (int/float/bool arrays, tensor
// and scalar lists, strings) taken in order from `pointers`; bools are integers.
std::unique_ptr<CanopyCall> RegisteredCall(const std::string& name, const std::vector<aclTensor*>& tensors,
                                           const std::vector<const aclScalar*>& scalars,
                                           const std::vector<int64_t>& integers,
                                           const std::vector<const void*>& pointers, std::string& error);

// Runs `work` as a task on the device engine's thread (a Canopy stream) and
// waits for it; returns what `work` returned. The references and the machine
// measurements run there so that, like an application that leaves its compute
// to Canopy, the process forks OpenMP teams from one thread only: a second
// team makes libgomp put idle workers to sleep at once, which slows every fork
// of both (docs/perf.md, "OpenMP teams of other threads").
double RunOnEngine(const std::function<double()>& work);

// Runs the call once and synchronises; the workspace grows as needed.
// Returns the status of the first phase that failed (and sets `message`), else 0.
// `path`, where given, receives the kernels phase 1 chose (canopyDescribeExecutor, shortened).
aclnnStatus RunCanopyOnce(const CanopyCall& call, DeviceBuffer& workspace, std::string& message,
                          std::string* path = nullptr);

// ---- timing -------------------------------------------------------------------------------

using Clock = std::chrono::steady_clock;
double MicrosecondsBetween(Clock::time_point start, Clock::time_point end);
double Median(std::vector<double> values);

struct TimedCall {
  double device_us;  // between events recorded around phase 2 on the stream
  double wall_us;    // phase 1 + phase 2 + synchronisation
};

// Phase 1, then events around phase 2, then a synchronisation.
TimedCall TimeCanopyOnce(const CanopyCall& call, DeviceBuffer& workspace);

struct PairTiming {
  double canopy_us = 0, canopy_best_us = 0, canopy_wall_us = 0, reference_us = 0, reference_best_us = 0;
  double paired_ratio = 0;
};

// Warm-up, then Canopy and the reference alternately in short bursts (so slow
// drifts of a shared machine hit both alike), each burst's first run not kept;
// medians of all kept repetitions and of the per-round ratios.
// `reference` may be empty.
PairTiming MeasurePair(const Settings& settings, const CanopyCall& call, DeviceBuffer& workspace,
                       const std::function<double()>& reference);

// Puts a measurement's times into its result.
void SetTiming(Result& result, const PairTiming& timing);
// Prints "LABEL: canopy T ms [B GB/s] F GFLOP/s [| REF T ms | canopy/ref R (paired P)]".
void PrintTimingLine(const std::string& label, const Result& result, bool with_bandwidth);

// ---- problems --------------------------------------------------------------------------------

// "1024x1024" -> {1024, 1024}; "16M" -> {16777216} (K, M, G are powers of 1024).
// Returns false on a malformed text.
bool ParseDims(const std::string& text, std::vector<int64_t>& dims);
std::string Join(const std::vector<std::string>& items, const char* separator);
std::string FormatDims(const std::vector<int64_t>& dims);

}  // namespace canopy_bench
