#include "bench_common.h"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstring>
#include <limits>
#include <random>
#include <utility>

#include "canopy/canopy_executor.h"
#include "canopy/canopy_ops.h"
#include "canopy/canopy_runtime.h"

namespace canopy_bench {

// ---- failure handling -----------------------------------------------------------

void Die(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::fprintf(stderr, "canopy-bench: ");
  std::vfprintf(stderr, format, args);
  std::fprintf(stderr, "\n");
  va_end(args);
  std::exit(2);
}

std::string Reproducer(const Settings& settings, const std::string& op, const std::string& dtype_options, uint64_t seed,
                       const std::string& problem) {
  std::string line = "canopy-bench --driver=" + settings.driver;
  line += settings.mode == Mode::kCorrectness ? " --mode=C" : " --mode=P";
  line += " --op=" + op + " " + dtype_options;
  if (settings.driver == "matmul" && op == "addmm") line += " --bias=" + settings.bias;
  if ((settings.driver == "matmul" || (settings.driver == "conv" && op == "conv")) && settings.cube_math_type != 0) {
    line += " --cube=" + std::to_string(settings.cube_math_type);
  }
  if (seed != Settings::kFreshSeed) line += " --seed=" + std::to_string(seed);
  return line + " " + problem;
}

// ---- results --------------------------------------------------------------------

double Result::RooflineGflops() const {
  if (flops <= 0 || bytes <= 0) return 0;
  const double memory_ceiling = Intensity() * peak_gbps;
  return peak_gflops > 0 && peak_gflops < memory_ceiling ? peak_gflops : memory_ceiling;
}

void Session::Record(const Result& result) {
  if (result.status == "fail" || result.status == "error") ++failures_;
  results_.push_back(result);
}

void Session::WriteCsv() const {
  if (csv_path.empty()) return;
  FILE* file = std::fopen(csv_path.c_str(), "w");
  if (file == nullptr) Die("cannot write %s", csv_path.c_str());
  std::fprintf(file,
               "driver,op,dtype,problem,status,threads,time_us,best_us,wall_us,gflops,gbps,pct_roofline,reference,"
               "reference_us,reference_best_us,reference_gflops,reference_gbps,ratio,best_ratio,paired_ratio,flops,"
               "bytes,intensity,note,path\n");
  for (const Result& r : results_) {
    const double percent = r.PercentOfRoofline();
    const double intensity = r.Intensity();
    std::fprintf(
        file,
        "%s,%s,%s,%s,%s,%d,%.3f,%.3f,%.3f,%.2f,%.2f,%.1f,\"%s\",%.3f,%.3f,%.2f,%.2f,%.3f,%.3f,%.3f,%.0f,%.0f,%.4f,"
        "\"%s\",\"%s\"\n",
        r.driver.c_str(), r.op.c_str(), r.dtype.c_str(), r.problem.c_str(), r.status.c_str(), machine_.threads,
        r.time_us, r.best_us, r.wall_us, r.Gflops(), r.Gbps(), percent, r.reference_name.c_str(), r.reference_us,
        r.reference_best_us, r.ReferenceGflops(), r.ReferenceGbps(), r.Ratio(), r.BestRatio(), r.paired_ratio, r.flops,
        r.bytes, intensity, r.note.c_str(), r.path.c_str());
  }
  std::fclose(file);
  std::printf("csv: %zu row(s) written to %s\n", results_.size(), csv_path.c_str());
}

// ---- dtypes -----------------------------------------------------------------------

namespace {

constexpr DtypeInfo kDtypes[] = {
    {"f32", ACL_FLOAT, 4, 24, true},  {"f16", ACL_FLOAT16, 2, 11, true}, {"bf16", ACL_BF16, 2, 8, true},
    {"f64", ACL_DOUBLE, 8, 53, true}, {"i32", ACL_INT32, 4, 0, false},   {"i64", ACL_INT64, 8, 0, false},
    {"i8", ACL_INT8, 1, 0, false},    {"u8", ACL_UINT8, 1, 0, false},
};

uint16_t FloatToBf16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if (std::isnan(value)) return static_cast<uint16_t>((bits >> 16) | 0x40u);  // stays a quiet NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);                                      // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

float Bf16BitsToFloat(uint16_t bits) {
  const uint32_t wide = uint32_t{bits} << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

// fp16 through F16C where the CPU has it: libgcc's soft conversions are slow
// enough to dominate setting up a 16M-element problem.
bool HasF16c() {
  static const bool has = __builtin_cpu_supports("f16c");
  return has;
}
__attribute__((target("f16c"))) float HalfBitsToFloatF16c(uint16_t bits) { return _cvtsh_ss(bits); }
__attribute__((target("f16c"))) uint16_t FloatToHalfBitsF16c(float value) {
  return _cvtss_sh(value, _MM_FROUND_TO_NEAREST_INT);
}

float HalfBitsToFloat(uint16_t bits) {
  if (HasF16c()) return HalfBitsToFloatF16c(bits);
  _Float16 value;
  std::memcpy(&value, &bits, sizeof(value));
  return static_cast<float>(value);
}

uint16_t FloatToHalfBits(float value) {
  if (HasF16c()) return FloatToHalfBitsF16c(value);
  const _Float16 half = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &half, sizeof(bits));
  return bits;
}

template <typename Integer>
Integer SaturateRound(double value) {
  if (std::isnan(value)) return 0;
  const double rounded = std::nearbyint(value);
  if (rounded <= static_cast<double>(std::numeric_limits<Integer>::lowest()))
    return std::numeric_limits<Integer>::lowest();
  if (rounded >= static_cast<double>(std::numeric_limits<Integer>::max())) return std::numeric_limits<Integer>::max();
  return static_cast<Integer>(rounded);
}

}  // namespace

const DtypeInfo* FindDtype(const std::string& name) {
  for (const DtypeInfo& dtype : kDtypes) {
    if (name == dtype.name) return &dtype;
  }
  return nullptr;
}

const DtypeInfo& DtypeOf(const std::string& name) {
  const DtypeInfo* dtype = FindDtype(name);
  if (dtype == nullptr) Die("unknown dtype '%s' (known: f32 f16 bf16 f64 i32 i64 i8 u8)", name.c_str());
  return *dtype;
}

double UnitRoundoff(const DtypeInfo& dtype) { return dtype.floating ? std::ldexp(1.0, -dtype.mantissa_bits) : 0.0; }

double SmallestNormal(const DtypeInfo& dtype) {
  switch (dtype.acl) {
    case ACL_FLOAT16:
      return std::ldexp(1.0, -14);
    case ACL_BF16:
    case ACL_FLOAT:
      return std::ldexp(1.0, -126);
    case ACL_DOUBLE:
      return std::numeric_limits<double>::min();
    default:
      return 1.0;
  }
}

double LoadDouble(const DtypeInfo& dtype, const void* base, size_t index) {
  const auto* bytes = static_cast<const unsigned char*>(base) + index * dtype.size;
  const auto read = [&](auto tag) {
    decltype(tag) value;
    std::memcpy(&value, bytes, sizeof(value));
    return value;
  };
  switch (dtype.acl) {
    case ACL_FLOAT:
      return read(float{});
    case ACL_FLOAT16:
      return HalfBitsToFloat(read(uint16_t{}));
    case ACL_BF16:
      return Bf16BitsToFloat(read(uint16_t{}));
    case ACL_DOUBLE:
      return read(double{});
    case ACL_INT32:
      return read(int32_t{});
    case ACL_INT64:
      return static_cast<double>(read(int64_t{}));
    case ACL_INT8:
      return read(int8_t{});
    case ACL_UINT8:
      return read(uint8_t{});
    default:
      Die("LoadDouble: dtype %s", dtype.name);
  }
}

void StoreDouble(const DtypeInfo& dtype, void* base, size_t index, double value) {
  auto* bytes = static_cast<unsigned char*>(base) + index * dtype.size;
  const auto write = [&](auto stored) { std::memcpy(bytes, &stored, sizeof(stored)); };
  switch (dtype.acl) {
    case ACL_FLOAT:
      return write(static_cast<float>(value));
    // Through f32, as PyTorch (c10::Half and c10::BFloat16 are built from a float)
    // and Canopy do: an f64 value can round twice.
    case ACL_FLOAT16:
      return write(FloatToHalfBits(static_cast<float>(value)));
    case ACL_BF16:
      return write(FloatToBf16Bits(static_cast<float>(value)));
    case ACL_DOUBLE:
      return write(value);
    case ACL_INT32:
      return write(SaturateRound<int32_t>(value));
    case ACL_INT64:
      return write(SaturateRound<int64_t>(value));
    case ACL_INT8:
      return write(SaturateRound<int8_t>(value));
    case ACL_UINT8:
      return write(SaturateRound<uint8_t>(value));
    default:
      Die("StoreDouble: dtype %s", dtype.name);
  }
}

// ---- data ---------------------------------------------------------------------------

uint64_t Random::Next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double Random::Uniform(double low, double high) {
  constexpr int kMantissaBits = 53;
  const double unit = static_cast<double>(Next() >> (64 - kMantissaBits)) * std::ldexp(1.0, -kMantissaBits);
  return low + (high - low) * unit;
}

uint64_t FreshSeed() {
  std::random_device device;
  uint64_t seed = (uint64_t{device()} << 32) ^ device();
  return seed == Settings::kFreshSeed ? 1 : seed;
}

int64_t HostTensor::Elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

HostTensor RandomTensor(const DtypeInfo& dtype, const std::vector<int64_t>& shape, Random& random, double low,
                        double high) {
  HostTensor t;
  t.dtype = &dtype;
  t.shape = shape;
  const int64_t n = t.Elements();
  t.bytes.resize(static_cast<size_t>(n) * dtype.size);
  t.values.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    StoreDouble(dtype, t.bytes.data(), i, random.Uniform(low, high));
    t.values[i] = LoadDouble(dtype, t.bytes.data(), i);
  }
  return t;
}

// ---- device side ------------------------------------------------------------------------

DeviceBuffer::DeviceBuffer(size_t bytes) { Reserve(bytes); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(bytes_, other.bytes_);
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (data_ != nullptr) aclrtFree(data_);
}

void DeviceBuffer::Reserve(size_t bytes) {
  if (bytes <= bytes_) return;
  if (data_ != nullptr) {
    // The old block may still be in use by queued work.
    BENCH_CHECK_ACL(aclrtSynchronizeStream(AclSession::Get().stream()));
    BENCH_CHECK_ACL(aclrtFree(data_));
    data_ = nullptr;
  }
  BENCH_CHECK_ACL(aclrtMalloc(&data_, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  bytes_ = bytes;
}

void DeviceBuffer::Upload(const HostTensor& host) {
  Reserve(host.bytes.size());
  if (!host.bytes.empty()) {
    BENCH_CHECK_ACL(aclrtMemcpy(data_, bytes_, host.bytes.data(), host.bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  }
}

void DeviceBuffer::Download(void* host, size_t bytes) const {
  if (bytes > 0) BENCH_CHECK_ACL(aclrtMemcpy(host, bytes, data_, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

void DeviceBuffer::Poison() {
  constexpr int kNanBytes = 0xff;
  if (bytes_ > 0) BENCH_CHECK_ACL(aclrtMemset(data_, bytes_, kNanBytes, bytes_));
}

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

Tensor::Tensor(const std::vector<int64_t>& shape, aclDataType dtype, void* data, aclFormat format) {
  const std::vector<int64_t> strides = ContiguousStrides(shape);
  tensor_ =
      aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, format, shape.data(), shape.size(), data);
  if (tensor_ == nullptr) Die("aclCreateTensor(%s) failed: %s", FormatDims(shape).c_str(), aclGetRecentErrMsg());
}

Tensor::~Tensor() { aclDestroyTensor(tensor_); }

AclSession& AclSession::Get() {
  static AclSession session;
  return session;
}

AclSession::AclSession() {
  BENCH_CHECK_ACL(aclInit(nullptr));
  BENCH_CHECK_ACL(aclrtSetDevice(0));
  BENCH_CHECK_ACL(aclrtCreateStream(&stream_));
  BENCH_CHECK_ACL(aclrtCreateEvent(&start_));
  BENCH_CHECK_ACL(aclrtCreateEvent(&end_));
}

namespace {
struct EngineWork {
  const std::function<double()>* work;
  double result = 0;
};

int32_t RunEngineWork(void* data) {
  auto& job = *static_cast<EngineWork*>(data);
  canopyPrepareComputeTeam();  // as Canopy's kernels do before they fork
  job.result = (*job.work)();
  return 0;
}
}  // namespace

double RunOnEngine(const std::function<double()>& work) {
  AclSession& acl = AclSession::Get();
  EngineWork job{&work};
  BENCH_CHECK_ACL(canopyLaunchTask(acl.stream(), "canopy-bench reference", RunEngineWork, nullptr, &job));
  BENCH_CHECK_ACL(aclrtSynchronizeStream(acl.stream()));
  return job.result;
}

namespace {

bool SameIgnoringCase(const std::string& a, const char* b) {
  const size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

const canopyOpInfo* FindRegisteredOp(const std::string& name) {
  const std::string wanted = name == "bmm" ? "BatchMatMul" : name;
  for (size_t i = 0; i < canopyOpCount(); ++i) {
    if (SameIgnoringCase(wanted, canopyOpAt(i)->name)) return canopyOpAt(i);
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<CanopyCall> RegisteredCall(const std::string& name, const std::vector<aclTensor*>& tensors,
                                           const std::vector<const aclScalar*>& scalars,
                                           const std::vector<int64_t>& integers, std::string& error) {
  return RegisteredCall(name, tensors, scalars, integers, {}, error);
}

std::unique_ptr<CanopyCall> RegisteredCall(const std::string& name, const std::vector<aclTensor*>& tensors,
                                           const std::vector<const aclScalar*>& scalars,
                                           const std::vector<int64_t>& integers,
                                           const std::vector<const void*>& pointers, std::string& error) {
  const canopyOpInfo* op = FindRegisteredOp(name);
  if (op == nullptr) {
    error = "no registered op is named " + name;
    return nullptr;
  }
  constexpr size_t kMaxArguments = 16;
  if (op->argCount > kMaxArguments) {
    error = std::string("aclnn") + op->name + " has more arguments than canopy-bench passes";
    return nullptr;
  }
  // One 8-byte cell per argument, read by the packed call as the argument's type.
  auto cells = std::make_shared<std::vector<uint64_t>>(op->argCount, 0);
  size_t next_tensor = 0, next_scalar = 0, next_integer = 0, next_pointer = 0;
  for (size_t i = 0; i < op->argCount; ++i) {
    void* cell = &(*cells)[i];
    switch (op->args[i].kind) {
      case CANOPY_ARG_TENSOR:
        if (next_tensor == tensors.size()) break;
        std::memcpy(cell, &tensors[next_tensor++], sizeof(aclTensor*));
        continue;
      case CANOPY_ARG_SCALAR:
        if (next_scalar == scalars.size()) break;
        std::memcpy(cell, &scalars[next_scalar++], sizeof(aclScalar*));
        continue;
      case CANOPY_ARG_INT:
      case CANOPY_ARG_ENUM:
      case CANOPY_ARG_BOOL:  // little-endian: the argument's low `size` bytes
        if (next_integer == integers.size()) break;
        std::memcpy(cell, &integers[next_integer++], sizeof(int64_t));
        continue;
      case CANOPY_ARG_INT_ARRAY:
      case CANOPY_ARG_FLOAT_ARRAY:
      case CANOPY_ARG_BOOL_ARRAY:
      case CANOPY_ARG_TENSOR_LIST:
      case CANOPY_ARG_SCALAR_LIST:
      case CANOPY_ARG_STRING:
        if (next_pointer == pointers.size()) break;
        std::memcpy(cell, &pointers[next_pointer++], sizeof(void*));
        continue;
      default:  // floats: not passed by this lookup yet
        break;
    }
    error = std::string("aclnn") + op->name + ": no value for argument '" + op->args[i].name + "'";
    return nullptr;
  }
  auto call = std::make_unique<CanopyCall>();
  call->phase1 = [op, cells](uint64_t* workspace_size, aclOpExecutor** executor) {
    void* pointers[kMaxArguments];
    for (size_t i = 0; i < cells->size(); ++i) pointers[i] = &(*cells)[i];
    return op->callGetWorkspaceSize(pointers, workspace_size, executor);
  };
  call->phase2 = op->run;
  return call;
}

// The kernels of a plan in short: each step's description up to its first
// bracket group ("matmul (oneDNN brg:avx512_core_amx)"), else its first two
// words; the output-overlap guard's own line is left out (its steps follow it).
std::string ShortPath(const std::string& steps) {
  std::string path;
  size_t begin = 0;
  while (begin < steps.size()) {
    size_t end = steps.find('\n', begin);
    if (end == std::string::npos) end = steps.size();
    std::string line = steps.substr(begin, end - begin);
    begin = end + 1;
    line.erase(0, line.find_first_not_of(' '));
    if (line.empty() || line.rfind("output overlap guard", 0) == 0) continue;
    size_t cut = line.find(')');
    if (cut == std::string::npos || line.find('(') > cut) {
      const size_t first = line.find(' ');
      cut = first == std::string::npos ? line.size() : line.find(' ', first + 1);
      if (cut == std::string::npos) cut = line.size();
    } else {
      ++cut;
    }
    if (!path.empty()) path += " + ";
    path += line.substr(0, cut);
  }
  return path;
}

aclnnStatus RunCanopyOnce(const CanopyCall& call, DeviceBuffer& workspace, std::string& message, std::string* path) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  if (aclnnStatus s = call.phase1(&workspace_size, &executor); s != 0) {
    message = std::string("phase 1: ") + aclGetRecentErrMsg();
    return s;
  }
  if (path != nullptr) {
    size_t length = 0;
    if (canopyDescribeExecutor(executor, nullptr, 0, &length) == 0) {
      std::string steps(length + 1, '\0');
      canopyDescribeExecutor(executor, steps.data(), steps.size(), &length);
      steps.resize(length);
      *path = ShortPath(steps);
    }
  }
  workspace.Reserve(workspace_size);
  aclrtStream stream = AclSession::Get().stream();
  if (aclnnStatus s = call.phase2(workspace.get(), workspace_size, executor, stream); s != 0) {
    message = std::string("phase 2: ") + aclGetRecentErrMsg();
    return s;
  }
  if (aclError s = aclrtSynchronizeStream(stream); s != ACL_SUCCESS) {
    message = std::string("synchronize: ") + aclGetRecentErrMsg();
    return s;
  }
  return 0;
}

// ---- timing -------------------------------------------------------------------------------

double MicrosecondsBetween(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double, std::micro>(end - start).count();
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  if (values.size() % 2 == 1) return values[middle];
  const double upper = values[middle];
  const double lower = *std::max_element(values.begin(), values.begin() + middle);
  return (lower + upper) / 2;
}

TimedCall TimeCanopyOnce(const CanopyCall& call, DeviceBuffer& workspace) {
  AclSession& acl = AclSession::Get();
  const auto start = Clock::now();
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  BENCH_CHECK_ACL(call.phase1(&workspace_size, &executor));
  workspace.Reserve(workspace_size);
  BENCH_CHECK_ACL(aclrtRecordEvent(acl.start_event(), acl.stream()));
  BENCH_CHECK_ACL(call.phase2(workspace.get(), workspace_size, executor, acl.stream()));
  BENCH_CHECK_ACL(aclrtRecordEvent(acl.end_event(), acl.stream()));
  BENCH_CHECK_ACL(aclrtSynchronizeStream(acl.stream()));
  const auto end = Clock::now();
  float milliseconds = 0;
  BENCH_CHECK_ACL(aclrtEventElapsedTime(&milliseconds, acl.start_event(), acl.end_event()));
  constexpr double kMicrosecondsPerMillisecond = 1000;
  return {milliseconds * kMicrosecondsPerMillisecond, MicrosecondsBetween(start, end)};
}

PairTiming MeasurePair(const Settings& settings, const CanopyCall& call, DeviceBuffer& workspace,
                       const std::function<double()>& reference) {
  // Canopy and the reference alternate in short bursts (the order flips every
  // round), so the slow drifts of a shared machine hit both alike. The first run
  // of each burst is not kept: it meets the cache the other side left and, after
  // a pause, OpenMP workers that went to sleep. Strictly alternating single runs
  // with pauses (the scheme before) timed every run in that state; while the
  // reference still ran on the client's own OpenMP team that made both sides up
  // to 2x slower, by chance more one than the other (docs/perf.md, "OpenMP teams
  // of other threads"). A burst's later runs see what an application calling op
  // after op sees.
  constexpr int kKeptPerBurst = 2;
  std::vector<double> canopy, canopy_wall, ref, pair_ratios;
  const auto canopy_burst = [&](int kept) {
    TimeCanopyOnce(call, workspace);
    double sum = 0;
    for (int i = 0; i < kept; ++i) {
      const TimedCall t = TimeCanopyOnce(call, workspace);
      canopy.push_back(t.device_us);
      canopy_wall.push_back(t.wall_us);
      sum += t.device_us;
    }
    return sum / kept;
  };
  const auto reference_burst = [&] {
    reference();
    double sum = 0;
    for (int i = 0; i < kKeptPerBurst; ++i) {
      const double us = reference();
      ref.push_back(us);
      sum += us;
    }
    return sum / kKeptPerBurst;
  };
  constexpr int kMaxRepetitions = 2000;
  double estimate_us = 0;
  for (int i = 0; i < std::max(1, settings.warmup); ++i) estimate_us = TimeCanopyOnce(call, workspace).wall_us;
  if (reference) {
    for (int i = 0; i < settings.warmup; ++i) reference();
  }
  // Repetitions count kept runs of each side, as without bursts.
  int repetitions = std::max(1, settings.repetitions);
  if (estimate_us > 0) {
    const double run_us = estimate_us * (kKeptPerBurst + 1) / kKeptPerBurst * (reference ? 2 : 1);
    const double wanted = settings.min_seconds * 1e6 / run_us;
    repetitions = std::max(repetitions, static_cast<int>(std::min<double>(wanted, kMaxRepetitions)));
  }
  if (!reference) {
    // Nothing to alternate with: one burst, one warm-up run.
    canopy_burst(repetitions);
  } else {
    const int rounds = (repetitions + kKeptPerBurst - 1) / kKeptPerBurst;
    for (int round = 0; round < rounds; ++round) {
      double canopy_us = 0, reference_us = 0;
      if (round % 2 == 0) {
        canopy_us = canopy_burst(kKeptPerBurst);
        reference_us = reference_burst();
      } else {
        reference_us = reference_burst();
        canopy_us = canopy_burst(kKeptPerBurst);
      }
      if (canopy_us > 0 && reference_us > 0) pair_ratios.push_back(reference_us / canopy_us);
    }
  }
  const auto best = [](const std::vector<double>& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); };
  // Each round ran back to back, under about the same load: the median of their
  // ratios is the least noisy comparison a shared machine allows.
  return {Median(canopy), best(canopy), Median(canopy_wall), Median(ref), best(ref), Median(pair_ratios)};
}

// ---- problems --------------------------------------------------------------------------------

bool ParseDims(const std::string& text, std::vector<int64_t>& dims) {
  dims.clear();
  size_t position = 0;
  while (position <= text.size()) {
    const size_t next = std::min(text.find('x', position), text.size());
    const std::string item = text.substr(position, next - position);
    if (item.empty()) return false;
    size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(item, &used);
    } catch (...) {
      return false;
    }
    int shift = 0;
    if (used + 1 == item.size()) {
      constexpr int kKiloShift = 10, kMegaShift = 20, kGigaShift = 30;
      switch (item.back()) {
        case 'K':
        case 'k':
          shift = kKiloShift;
          break;
        case 'M':
        case 'm':
          shift = kMegaShift;
          break;
        case 'G':
        case 'g':
          shift = kGigaShift;
          break;
        default:
          return false;
      }
    } else if (used != item.size()) {
      return false;
    }
    if (value < 0) return false;
    dims.push_back(static_cast<int64_t>(value) << shift);
    position = next + 1;
  }
  return !dims.empty();
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += separator;
    text += items[i];
  }
  return text;
}

std::string FormatDims(const std::vector<int64_t>& dims) {
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += 'x';
    text += std::to_string(dims[i]);
  }
  return text;
}

void SetTiming(Result& result, const PairTiming& timing) {
  result.time_us = timing.canopy_us;
  result.best_us = timing.canopy_best_us;
  result.wall_us = timing.canopy_wall_us;
  result.reference_us = timing.reference_us;
  result.reference_best_us = timing.reference_best_us;
  result.paired_ratio = timing.paired_ratio;
}

void PrintTimingLine(const std::string& label, const Result& result, bool with_bandwidth) {
  std::printf("%s: canopy %.3f ms", label.c_str(), result.time_us * 1e-3);
  if (with_bandwidth) std::printf(" %.1f GB/s", result.Gbps());
  std::printf(" %.1f GFLOP/s", result.Gflops());
  if (result.reference_us > 0) {
    std::printf(" | %s %.3f ms | canopy/ref %.3f (paired %.3f)", result.reference_name.c_str(),
                result.reference_us * 1e-3, result.Ratio(), result.paired_ratio);
  }
  std::printf("\n");
  if (!result.path.empty()) std::printf("  path: %s\n", result.path.c_str());
}

}  // namespace canopy_bench
