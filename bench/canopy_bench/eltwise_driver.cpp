// --driver=eltwise: aclnnAdd, aclnnSub, aclnnMul, aclnnDiv and aclnnCast on
// contiguous tensors, against a float64 reference (--mode=C) or against a plain
// loop on all OpenMP threads over the same bytes (--mode=P).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "driver.h"
#include "reference_loops.h"

namespace canopy_bench {
namespace {

constexpr double kOperandRange = 1.0;  // binary operands: uniform in [-1, 1)
constexpr double kDivisorLow = 0.5;    // divisors: magnitude in [0.5, 2), either sign
constexpr double kDivisorHigh = 2.0;
// Cast sources span 2^-12 .. 2^12 in magnitude: fp16 subnormals and rounding of large values.
constexpr int kCastExponentRange = 12;
constexpr size_t kAlignment = 64;

bool IsBinary(const std::string& op) { return op == "add" || op == "sub" || op == "mul" || op == "div"; }

BinaryOp BinaryOf(const std::string& op) {
  if (op == "add") return BinaryOp::kAdd;
  if (op == "sub") return BinaryOp::kSub;
  if (op == "mul") return BinaryOp::kMul;
  return BinaryOp::kDiv;
}

double ApplyDouble(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::kAdd:
      return a + b;
    case BinaryOp::kSub:
      return a - b;
    case BinaryOp::kMul:
      return a * b;
    case BinaryOp::kDiv:
      return a / b;
  }
  return 0;
}

// A buffer for the reference loop, first touched by the threads that use it
// (the engine's team, where the loop runs: RunOnEngine).
class HostBuffer {
 public:
  explicit HostBuffer(size_t bytes)
      : data_(static_cast<unsigned char*>(
            std::aligned_alloc(kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment))) {
    unsigned char* data = data_.get();
    RunOnEngine([&] {
#pragma omp parallel
      {
        const size_t count = omp_get_num_threads(), id = omp_get_thread_num();
        const size_t begin = bytes * id / count, end = bytes * (id + 1) / count;
        std::memset(data + begin, 0, end - begin);
      }
      return 0.0;
    });
  }
  unsigned char* get() const { return data_.get(); }

 private:
  struct Free {
    void operator()(unsigned char* p) const { std::free(p); }
  };
  std::unique_ptr<unsigned char, Free> data_;
};

struct Job {
  std::string op;
  const DtypeInfo* src = nullptr;  // inputs
  const DtypeInfo* dst = nullptr;  // output
  std::string dtype_label;         // "f16" or "f32->bf16"
  std::string dtype_options;       // for the reproducer
};

void RunOne(const Settings& settings, const Job& job, const std::string& problem_text,
            const std::vector<int64_t>& shape, Session& session) {
  Result result;
  result.driver = "eltwise";
  result.op = job.op;
  result.dtype = job.dtype_label;
  result.problem = problem_text;
  const uint64_t seed = settings.seed != Settings::kFreshSeed ? settings.seed : FreshSeed();
  const std::string reproducer = Reproducer(settings, job.op, job.dtype_options, seed, problem_text);
  const std::string label = "[eltwise] op=" + job.op + " dt=" + job.dtype_label + " " + problem_text;
  const bool binary = IsBinary(job.op);

  Random random(seed);
  HostTensor a, b;
  if (binary) {
    a = RandomTensor(*job.src, shape, random, -kOperandRange, kOperandRange);
    if (job.op == "div") {
      b = RandomTensor(*job.src, shape, random, kDivisorLow, kDivisorHigh);
      for (int64_t i = 0; i < b.Elements(); ++i) {
        if (random.Next() & 1) StoreDouble(*job.src, b.bytes.data(), i, b.values[i] = -b.values[i]);
      }
    } else {
      b = RandomTensor(*job.src, shape, random, -kOperandRange, kOperandRange);
    }
  } else {
    a = RandomTensor(*job.src, shape, random, -kOperandRange, kOperandRange);
    for (int64_t i = 0; i < a.Elements(); ++i) {
      const int exponent = static_cast<int>(random.Next() % (2 * kCastExponentRange + 1)) - kCastExponentRange;
      StoreDouble(*job.src, a.bytes.data(), i, std::ldexp(a.values[i], exponent));
      a.values[i] = LoadDouble(*job.src, a.bytes.data(), i);  // what the dtype holds
    }
  }
  const int64_t n = a.Elements();

  DeviceBuffer a_device, b_device, out_device, workspace;
  a_device.Upload(a);
  if (binary) b_device.Upload(b);
  out_device.Reserve(static_cast<size_t>(n) * job.dst->size);
  out_device.Poison();
  Tensor a_tensor(shape, job.src->acl, a_device.get());
  std::unique_ptr<Tensor> b_tensor;
  if (binary) b_tensor = std::make_unique<Tensor>(shape, job.src->acl, b_device.get());
  Tensor out_tensor(shape, job.dst->acl, out_device.get());
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);

  aclTensor* x = a_tensor.get();
  aclTensor* y = binary ? b_tensor->get() : nullptr;
  aclTensor* out = out_tensor.get();
  const aclDataType cast_to = job.dst->acl;
  // The op from the registry: binary ops take (self, other[, alpha], out), Cast (self, dtype, out).
  const std::vector<aclTensor*> tensors = binary ? std::vector<aclTensor*>{x, y, out} : std::vector<aclTensor*>{x, out};
  std::string lookup_error;
  const std::unique_ptr<CanopyCall> registered = RegisteredCall(job.op, tensors, {alpha}, {cast_to}, lookup_error);
  if (registered == nullptr) {
    std::printf("%s: ERROR %s\n", label.c_str(), lookup_error.c_str());
    result.status = "error";
    result.note = lookup_error;
    session.Record(result);
    aclDestroyScalar(alpha);
    return;
  }
  const CanopyCall& call = *registered;

  // One operation per element; the traffic is every input read and the output written once.
  result.flops = static_cast<double>(n);
  result.bytes = static_cast<double>(n) * static_cast<double>((binary ? 2 : 1) * job.src->size + job.dst->size);
  result.peak_gflops = session.machine().f32_gflops;
  result.peak_gbps = session.machine().BandwidthGbps();

  std::string message;
  if (aclnnStatus s = RunCanopyOnce(call, workspace, message); s != 0) {
    std::printf("%s: ERROR status %d: %s\n  reproducer: %s\n", label.c_str(), s, message.c_str(), reproducer.c_str());
    result.status = "error";
    result.note = message;
    session.Record(result);
    aclDestroyScalar(alpha);
    return;
  }

  if (settings.mode == Mode::kCorrectness) {
    std::vector<unsigned char> got(static_cast<size_t>(n) * job.dst->size);
    out_device.Download(got.data(), got.size());
    // Binary ops compute in f32 and round once to the output: within one ulp of the
    // exact result. Casts round once: they must be exact.
    const double u_out = UnitRoundoff(*job.dst);
    const double floor = u_out * SmallestNormal(*job.dst);
    double worst = 0;
    int64_t first_bad = -1;
    for (int64_t i = 0; i < n; ++i) {
      double expected = binary ? ApplyDouble(BinaryOf(job.op), a.values[i], b.values[i]) : a.values[i];
      unsigned char rounded[sizeof(double)];
      StoreDouble(*job.dst, rounded, 0, expected);
      if (!binary) expected = LoadDouble(*job.dst, rounded, 0);
      const double value = LoadDouble(*job.dst, got.data(), static_cast<size_t>(i));
      const double bound = binary ? 2 * u_out * std::fabs(expected) + floor : 0;
      const double error = std::fabs(value - expected);
      const bool ok = error <= bound || (value == expected);
      if (bound > 0) worst = std::max(worst, error / bound);
      if (!ok && first_bad < 0) first_bad = i;
      if (!ok && bound == 0) worst = INFINITY;
    }
    char note[160];
    std::snprintf(note, sizeof(note), binary ? "max error %.3g of bound" : "exact match required", worst);
    result.note = note;
    if (first_bad < 0) {
      std::printf("%s: PASSED (%s)\n", label.c_str(), note);
    } else {
      result.status = "fail";
      char detail[160];
      std::snprintf(detail, sizeof(detail), "first mismatch at %lld: inputs %.9g %.9g, got %.9g",
                    static_cast<long long>(first_bad), a.values[first_bad], binary ? b.values[first_bad] : 0.0,
                    LoadDouble(*job.dst, got.data(), static_cast<size_t>(first_bad)));
      result.note += std::string("; ") + detail;
      std::printf("%s: FAILED (%s; %s)\n  reproducer: %s\n", label.c_str(), note, detail, reproducer.c_str());
    }
    session.Record(result);
    aclDestroyScalar(alpha);
    return;
  }

  std::function<double()> reference_once;
  std::unique_ptr<HostBuffer> ref_a, ref_b, ref_out;
  if (settings.reference) {
    ref_a = std::make_unique<HostBuffer>(a.bytes.size());
    std::memcpy(ref_a->get(), a.bytes.data(), a.bytes.size());
    if (binary) {
      ref_b = std::make_unique<HostBuffer>(b.bytes.size());
      std::memcpy(ref_b->get(), b.bytes.data(), b.bytes.size());
    }
    ref_out = std::make_unique<HostBuffer>(static_cast<size_t>(n) * job.dst->size);
    result.reference_name = "plain-loop:" + std::to_string(omp_get_max_threads()) + "t";
    const void* ra = ref_a->get();
    const void* rb = binary ? ref_b->get() : nullptr;
    void* ro = ref_out->get();
    const Job* j = &job;
    reference_once = [=] {
      return RunOnEngine([=] {
        const auto start = Clock::now();
        const bool ran = binary ? PlainBinaryLoop(BinaryOf(j->op), j->src->acl, ra, rb, ro, n)
                                : PlainCastLoop(j->src->acl, j->dst->acl, ra, ro, n);
        if (!ran) return 0.0;
        return MicrosecondsBetween(start, Clock::now());
      });
    };
  }
  const PairTiming timing = MeasurePair(settings, call, workspace, reference_once);
  SetTiming(result, timing);
  if (result.reference_us == 0) result.reference_name.clear();
  std::printf("%s: canopy %.3f ms %.1f GB/s (%.1f%% of bandwidth)", label.c_str(), result.time_us * 1e-3, result.Gbps(),
              result.PercentOfRoofline());
  if (result.reference_us > 0) {
    std::printf(" | %s %.3f ms %.1f GB/s | canopy/ref %.3f (paired %.3f)", result.reference_name.c_str(),
                result.reference_us * 1e-3, result.ReferenceGbps(), result.Ratio(), result.paired_ratio);
  }
  std::printf("\n");
  session.Record(result);
  aclDestroyScalar(alpha);
}

}  // namespace

void RunEltwiseDriver(const Settings& settings, const std::string& problem_text, Session& session) {
  std::vector<int64_t> shape;
  if (!ParseDims(problem_text, shape)) Die("eltwise problem '%s' is not like 16M or 1024x1024", problem_text.c_str());
  for (const std::string& op : OpsOf(settings, *FindDriver("eltwise"))) {
    if (IsBinary(op)) {
      for (const std::string& dtype : settings.dtypes) {
        const DtypeInfo& info = DtypeOf(dtype);
        RunOne(settings, {op, &info, &info, dtype, "--dt=" + dtype}, problem_text, shape, session);
      }
    } else if (op == "cast") {
      const auto& sources = settings.src_dtypes.empty() ? settings.dtypes : settings.src_dtypes;
      const auto& targets = settings.dst_dtypes.empty() ? settings.dtypes : settings.dst_dtypes;
      for (const std::string& src : sources) {
        for (const std::string& dst : targets) {
          RunOne(settings, {op, &DtypeOf(src), &DtypeOf(dst), src + "->" + dst, "--sdt=" + src + " --ddt=" + dst},
                 problem_text, shape, session);
        }
      }
    } else {
      Die("eltwise: unknown op '%s' (add, sub, mul, div, cast)", op.c_str());
    }
  }
}

}  // namespace canopy_bench
