// --driver=unary: pointwise ops of one tensor (exp, sigmoid, ... taking
// (self, out), and the few in kOps with scalar arguments: pow as
// PowTensorScalar with exponent 2.5, muls, adds) on contiguous tensors against
// two plain two-thread loops over the same bytes, each measured alternately
// with Canopy in the same run:
// - a copy loop (read n inputs, write n outputs): the memory bound;
// - where kOps names one, SLEEF's own f32 vector function (the one Canopy's
//   kernel calls: 16 lanes with AVX-512, 8 with AVX2), the storage widened
//   and rounded in registers as a fair plain loop does: the compute bound.
// The target: a ratio of at least 0.9 to the copy loop where the op is memory
// bound (no SLEEF row, or SLEEF's own loop outruns the copy), else at least
// 1 / 1.5 to SLEEF's loop. Sigmoid, SiLU and GELU (tanh form) are one expf
// and a few cheap instructions: SLEEF's expf loop is their floor, and the
// target where it is compute bound. SLEEF is looked up at run time (dlopen), so the
// bench needs no build-time dependency on it.
#include <cpuid.h>
#include <dlfcn.h>
#include <omp.h>

#include <cstring>
#include <memory>

#include "driver.h"
#include "x86_intrinsics.h"

#define UNARY_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,f16c,fma")))
#define UNARY_AVX2 __attribute__((target("avx2,f16c,fma")))

namespace canopy_bench {
namespace {

constexpr int kThreads = 2;
constexpr size_t kAlignment = 64;
// Above this ratio of SLEEF's rate to the copy's, SLEEF's loop is memory bound.
constexpr double kComputeBoundBelow = 1.0;
constexpr double kCopyTarget = 0.9;
constexpr double kSleefTarget = 1 / 1.5;

// One op: how the driver calls it and what its SLEEF reference is.
struct OpRow {
  const char* op;                   // --op name
  const char* call;                 // the registered op (null: op)
  int num_scalars = 0;              // scalar arguments, in prototype order
  double scalars[2] = {0, 0};       // their values (f32 scalars)
  double low = -4, high = 4;        // input range
  const char* sleef = nullptr;      // SLEEF function stem ("exp": Sleef_expf16_u10avx512f); null: none
  const char* accuracy = "u10";     // its accuracy suffix
  bool sleef_takes_scalar = false;  // the SLEEF function is f(x, scalars[0]) (pow)
  // The op is more than its SLEEF call (sigmoid: one expf, a division, a
  // select): SLEEF's loop is its floor, not its equal.
  bool floor = false;
};

// Ops not listed take (self, out), inputs in [-4, 4), and have no SLEEF row.
const OpRow kOps[] = {
    {.op = "exp", .call = nullptr, .sleef = "exp"},
    {.op = "exp2", .call = nullptr, .sleef = "exp2"},
    {.op = "expm1", .call = nullptr, .sleef = "expm1"},
    {.op = "log", .call = nullptr, .low = 0.01, .high = 4, .sleef = "log"},
    {.op = "log2", .call = nullptr, .low = 0.01, .high = 4, .sleef = "log2"},
    {.op = "log10", .call = nullptr, .low = 0.01, .high = 4, .sleef = "log10"},
    {.op = "log1p", .call = nullptr, .low = 0, .high = 4, .sleef = "log1p"},
    {.op = "erf", .call = nullptr, .sleef = "erf"},
    {.op = "erfc", .call = nullptr, .sleef = "erfc", .accuracy = "u15"},
    {.op = "tanh", .call = nullptr, .sleef = "tanh"},
    {.op = "sin", .call = nullptr, .sleef = "sin"},
    {.op = "cos", .call = nullptr, .sleef = "cos"},
    {.op = "tan", .call = nullptr, .sleef = "tan"},
    {.op = "atan", .call = nullptr, .sleef = "atan"},
    {.op = "asin", .call = nullptr, .low = -1, .high = 1, .sleef = "asin"},
    {.op = "acos", .call = nullptr, .low = -1, .high = 1, .sleef = "acos"},
    {.op = "sinh", .call = nullptr, .sleef = "sinh"},
    {.op = "cosh", .call = nullptr, .sleef = "cosh"},
    {.op = "sigmoid", .call = nullptr, .sleef = "exp", .floor = true},
    {.op = "silu", .call = nullptr, .sleef = "exp", .floor = true},
    {.op = "gelu", .call = nullptr, .sleef = "exp", .floor = true},  // the tanh form: x sigmoid(z), one expf
    {.op = "sqrt", .call = nullptr, .low = 0, .high = 4},
    {.op = "rsqrt", .call = nullptr, .low = 0.01, .high = 4},
    {.op = "pow",
     .call = "PowTensorScalar",
     .num_scalars = 1,
     .scalars = {2.5, 0},
     .low = 0,
     .high = 4,
     .sleef = "pow",
     .sleef_takes_scalar = true},
    {.op = "muls", .call = nullptr, .num_scalars = 1, .scalars = {1.5, 0}},
    {.op = "adds", .call = nullptr, .num_scalars = 2, .scalars = {1.5, 1}},
};

OpRow RowOf(const std::string& op) {
  for (const OpRow& row : kOps) {
    if (op == row.op) return row;
  }
  return OpRow{.op = op.c_str(), .call = nullptr};
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using HostBytes = std::unique_ptr<unsigned char, FreeDeleter>;

HostBytes AlignedBytes(size_t bytes) {
  return HostBytes(
      static_cast<unsigned char*>(std::aligned_alloc(kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment)));
}

// ---- SLEEF's loop ---------------------------------------------------------------------

enum class Width { kNone, kAvx2, kAvx512 };

bool Allows(const char* variable, const char* feature) {
  const char* value = std::getenv(variable);
  return value == nullptr || *value == '\0' || std::strstr(value, feature) != nullptr;
}

bool HasF16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
}

// The widest SLEEF variant this CPU has, capped as Canopy is by
// CANOPY_CPU_FEATURES / CANOPY_MAX_ISA (so both sides run the same width).
Width SleefWidth() {
  if (!Allows("CANOPY_MAX_ISA", "avx")) return Width::kNone;
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && HasF16c() &&
                    Allows("CANOPY_CPU_FEATURES", "avx2");
  const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512vl") && Allows("CANOPY_CPU_FEATURES", "avx512") &&
                      Allows("CANOPY_MAX_ISA", "avx512");
  return avx512 ? Width::kAvx512 : (avx2 ? Width::kAvx2 : Width::kNone);
}

// Null where libsleef or the function is missing.
void* SleefFunction(const std::string& name) {
  static void* library = dlopen("libsleef.so.3", RTLD_NOW | RTLD_LOCAL);
  return library == nullptr ? nullptr : dlsym(library, name.c_str());
}

// Sixteen lanes widened from and rounded to the storage (bf16: round to
// nearest even, NaN quieted), as Canopy's kernels and reference_loops.cpp do.
UNARY_AVX512 inline __m512 Load16(aclDataType dtype, const void* base, int64_t i, __mmask16 m) {
  const auto* half = static_cast<const uint16_t*>(base) + i;
  if (dtype == ACL_FLOAT16) return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, half));
  if (dtype == ACL_BF16) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, half)), 16));
  }
  return _mm512_maskz_loadu_ps(m, static_cast<const float*>(base) + i);
}

UNARY_AVX512 inline void Store16(aclDataType dtype, void* base, int64_t i, __m512 v, __mmask16 m) {
  auto* half = static_cast<uint16_t*>(base) + i;
  if (dtype == ACL_FLOAT16) {
    _mm256_mask_storeu_epi16(half, m, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  } else if (dtype == ACL_BF16) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_add_epi32(bits, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    const __m512i result = _mm512_mask_or_epi32(rounded, nan, bits, _mm512_set1_epi32(0x400000));
    _mm256_mask_storeu_epi16(half, m, _mm512_cvtepi32_epi16(_mm512_srli_epi32(result, 16)));
  } else {
    _mm512_mask_storeu_ps(static_cast<float*>(base) + i, m, v);
  }
}

// The dtype is a template argument so that each loop carries only its own conversions.
template <aclDataType D>
UNARY_AVX512 void SleefRange512(void* function, bool takes_scalar, float scalar, const void* src, void* dst,
                                int64_t begin, int64_t end) {
  const auto one = reinterpret_cast<__m512 (*)(__m512)>(function);
  const auto two = reinterpret_cast<__m512 (*)(__m512, __m512)>(function);
  const __m512 y = _mm512_set1_ps(scalar);
  constexpr int64_t kAhead = 2048;  // bytes: the prefetch Canopy's one-pass loops make (kernels/stream_prefetch.h)
  constexpr int64_t kSize = D == ACL_FLOAT ? 4 : 2;
  for (int64_t i = begin; i < end; i += 16) {
    // Without them SLEEF's loop waits on its stores' lines (as Canopy's did),
    // and would understate the library's own throughput.
    const auto src_ahead = reinterpret_cast<uintptr_t>(src) + static_cast<uintptr_t>(i * kSize + kAhead);
    const auto dst_ahead = reinterpret_cast<uintptr_t>(dst) + static_cast<uintptr_t>(i * kSize + kAhead);
    _mm_prefetch(reinterpret_cast<const char*>(src_ahead), _MM_HINT_T0);
    asm volatile("prefetchw %0" : : "m"(*reinterpret_cast<const char*>(dst_ahead)));
    const auto m = static_cast<__mmask16>(end - i >= 16 ? 0xffff : (1u << (end - i)) - 1);
    const __m512 x = Load16(D, src, i, m);
    Store16(D, dst, i, takes_scalar ? two(x, y) : one(x), m);
  }
}

// Eight lanes (AVX2 + F16C); the tail goes through a zero-padded register.
UNARY_AVX2 inline __m256 Load8(aclDataType dtype, const void* base, int64_t i) {
  const auto* half = static_cast<const uint16_t*>(base) + i;
  if (dtype == ACL_FLOAT16) return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(half)));
  if (dtype == ACL_BF16) {
    const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(half)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
  }
  return _mm256_loadu_ps(static_cast<const float*>(base) + i);
}

UNARY_AVX2 inline void Store8(aclDataType dtype, void* base, int64_t i, __m256 v) {
  auto* half = static_cast<uint16_t*>(base) + i;
  if (dtype == ACL_FLOAT16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(half), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  } else if (dtype == ACL_BF16) {
    const __m256i bits = _mm256_castps_si256(v);
    const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
    const __m256i rounded = _mm256_add_epi32(bits, _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff)));
    const __m256i quiet = _mm256_or_si256(bits, _mm256_set1_epi32(0x400000));
    const __m256 nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
    const __m256i result = _mm256_srli_epi32(
        _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(rounded), _mm256_castsi256_ps(quiet), nan)), 16);
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(result, result), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(half), _mm256_castsi256_si128(packed));
  } else {
    _mm256_storeu_ps(static_cast<float*>(base) + i, v);
  }
}

UNARY_AVX2 inline __m256 Apply8(void* function, bool takes_scalar, __m256 x, __m256 y) {
  if (takes_scalar) return reinterpret_cast<__m256 (*)(__m256, __m256)>(function)(x, y);
  return reinterpret_cast<__m256 (*)(__m256)>(function)(x);
}

template <aclDataType D>
UNARY_AVX2 void SleefRange256(void* function, bool takes_scalar, float scalar, const void* src, void* dst,
                              int64_t begin, int64_t end) {
  const __m256 y = _mm256_set1_ps(scalar);
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) Store8(D, dst, i, Apply8(function, takes_scalar, Load8(D, src, i), y));
  if (i < end) {
    const size_t size = D == ACL_FLOAT ? 4 : 2;
    alignas(32) unsigned char in[32] = {}, out[32];
    std::memcpy(in, static_cast<const unsigned char*>(src) + i * size, (end - i) * size);
    Store8(D, out, 0, Apply8(function, takes_scalar, Load8(D, in, 0), y));
    std::memcpy(static_cast<unsigned char*>(dst) + i * size, out, (end - i) * size);
  }
}

using SleefRange = void (*)(void*, bool, float, const void*, void*, int64_t, int64_t);

template <aclDataType D>
SleefRange RangeOf(Width width) {
  return width == Width::kAvx512 ? SleefRange512<D> : SleefRange256<D>;
}

// ---- one problem ------------------------------------------------------------------------

void RunOne(const Settings& settings, const OpRow& row, const DtypeInfo& dtype, const std::string& problem,
            const std::vector<int64_t>& shape, Session& session) {
  Result result;
  result.driver = "unary";
  result.op = row.op;
  result.dtype = dtype.name;
  result.problem = problem;
  const std::string label = std::string("[unary] op=") + row.op + " dt=" + dtype.name + " " + problem;
  Random random(settings.seed != Settings::kFreshSeed ? settings.seed : FreshSeed());
  const HostTensor a = RandomTensor(dtype, shape, random, row.low, row.high);
  const int64_t n = a.Elements();
  const size_t bytes = static_cast<size_t>(n) * dtype.size;
  DeviceBuffer in_device, out_device, workspace;
  in_device.Upload(a);
  out_device.Reserve(bytes);
  Tensor in_tensor(shape, dtype.acl, in_device.get()), out_tensor(shape, dtype.acl, out_device.get());
  std::vector<aclScalar*> scalars;
  for (int k = 0; k < row.num_scalars; ++k) {
    auto value = static_cast<float>(row.scalars[k]);
    scalars.push_back(aclCreateScalar(&value, ACL_FLOAT));
  }
  std::string error;
  const auto call = RegisteredCall(row.call != nullptr ? row.call : row.op, {in_tensor.get(), out_tensor.get()},
                                   {scalars.begin(), scalars.end()}, {}, error);
  if (call == nullptr) Die("unary: %s", error.c_str());
  std::string message;
  if (RunCanopyOnce(*call, workspace, message, &result.path) != 0) {  // a dtype the op does not take
    std::printf("%s: skipped: %s\n", label.c_str(), message.c_str());
    result.status = "skip";
    result.note = message;
    session.Record(result);
    for (aclScalar* scalar : scalars) aclDestroyScalar(scalar);
    return;
  }
  result.flops = static_cast<double>(n);
  result.bytes = 2.0 * static_cast<double>(bytes);
  result.peak_gflops = session.machine().f32_gflops;
  result.peak_gbps = session.machine().BandwidthGbps();

  // The references' buffers, first touched by the threads that use them.
  HostBytes src = AlignedBytes(bytes), dst = AlignedBytes(bytes);
  unsigned char* s = src.get();
  unsigned char* d = dst.get();
  RunOnEngine([=, &a] {
#pragma omp parallel num_threads(kThreads)
    {
      const size_t count = omp_get_num_threads(), id = omp_get_thread_num();
      const size_t begin = bytes * id / count, end = bytes * (id + 1) / count;
      std::memcpy(s + begin, a.bytes.data() + begin, end - begin);
      std::memset(d + begin, 0, end - begin);
    }
    return 0.0;
  });
  const auto copy = [=] {
    return RunOnEngine([=] {
      const auto start = Clock::now();
#pragma omp parallel num_threads(kThreads)
      {
        const size_t count = omp_get_num_threads(), id = omp_get_thread_num();
        const size_t begin = bytes * id / count, end = bytes * (id + 1) / count;
        std::memcpy(d + begin, s + begin, end - begin);
      }
      return MicrosecondsBetween(start, Clock::now());
    });
  };
  result.reference_name = "copy-loop:" + std::to_string(kThreads) + "t";
  SetTiming(result, MeasurePair(settings, *call, workspace, copy));
  std::printf("%s: canopy %.3f ms %.1f GB/s | %s %.3f ms %.1f GB/s | canopy/copy %.3f (paired %.3f)\n", label.c_str(),
              result.time_us * 1e-3, result.Gbps(), result.reference_name.c_str(), result.reference_us * 1e-3,
              result.ReferenceGbps(), result.Ratio(), result.paired_ratio);
  if (!result.path.empty()) std::printf("  path: %s\n", result.path.c_str());
  const double copy_ratio = result.paired_ratio;
  const double copy_us = result.reference_us;
  Result sleef = result;

  // SLEEF's own loop, where the op has one and this CPU runs a SLEEF variant.
  const Width width = SleefWidth();
  void* function = nullptr;
  std::string name;
  if (row.sleef != nullptr && width != Width::kNone) {
    name = std::string("Sleef_") + row.sleef + (width == Width::kAvx512 ? "f16_" : "f8_") + row.accuracy +
           (width == Width::kAvx512 ? "avx512f" : "avx2");
    function = SleefFunction(name);
    if (function == nullptr) std::printf("  (no %s in libsleef.so.3: no SLEEF reference)\n", name.c_str());
  }
  bool compute_bound = false;
  if (function != nullptr) {
    SleefRange range = nullptr;
    switch (dtype.acl) {
      case ACL_FLOAT16:
        range = RangeOf<ACL_FLOAT16>(width);
        break;
      case ACL_BF16:
        range = RangeOf<ACL_BF16>(width);
        break;
      default:
        range = RangeOf<ACL_FLOAT>(width);
        break;
    }
    const bool takes_scalar = row.sleef_takes_scalar;
    const auto scalar = static_cast<float>(row.scalars[0]);
    const auto reference = [=] {
      return RunOnEngine([=] {
        const auto start = Clock::now();
#pragma omp parallel num_threads(kThreads)
        {
          const int64_t count = omp_get_num_threads(), id = omp_get_thread_num();
          range(function, takes_scalar, scalar, s, d, n * id / count, n * (id + 1) / count);
        }
        return MicrosecondsBetween(start, Clock::now());
      });
    };
    sleef.reference_name = "sleef:" + name + (row.floor ? "(floor)" : "") + ":" + std::to_string(kThreads) + "t";
    SetTiming(sleef, MeasurePair(settings, *call, workspace, reference));
    compute_bound = sleef.reference_us > copy_us * kComputeBoundBelow;
    std::printf("%s: canopy %.3f ms %.1f GB/s | %s %.3f ms %.1f GB/s | canopy/sleef %.3f (paired %.3f)\n",
                label.c_str(), sleef.time_us * 1e-3, sleef.Gbps(), sleef.reference_name.c_str(),
                sleef.reference_us * 1e-3, sleef.ReferenceGbps(), sleef.Ratio(), sleef.paired_ratio);
  }
  const double achieved = compute_bound ? sleef.paired_ratio : copy_ratio;
  const double target = compute_bound ? kSleefTarget : kCopyTarget;
  const char* against = !compute_bound ? "canopy/copy" : (row.floor ? "canopy/sleef-floor" : "canopy/sleef");
  const std::string verdict = std::string("target: ") + against + " >= " + (compute_bound ? "0.67" : "0.90") +
                              (achieved >= target ? " met" : " MISSED");
  std::printf("  %s (paired %.3f)\n", verdict.c_str(), achieved);
  (compute_bound ? sleef : result).note = verdict;
  session.Record(result);
  if (function != nullptr) session.Record(sleef);
  for (aclScalar* scalar : scalars) aclDestroyScalar(scalar);
}

}  // namespace

void RunUnaryDriver(const Settings& settings, const std::string& problem, Session& session) {
  std::vector<int64_t> shape;
  if (!ParseDims(problem, shape)) Die("unary problem '%s' is not like 16M or 1024x1024", problem.c_str());
  for (const std::string& op : OpsOf(settings, *FindDriver("unary"))) {
    const OpRow row = RowOf(op);
    for (const std::string& dtype : settings.dtypes) RunOne(settings, row, DtypeOf(dtype), problem, shape, session);
  }
}

}  // namespace canopy_bench
