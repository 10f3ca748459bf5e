// --driver=unary: unary pointwise ops (any registered op taking (self, out):
// exp, sigmoid, ...) on contiguous tensors against a plain two-thread copy loop
// over the same bytes (read n inputs, write n outputs), measured alternately in
// the same run. A memory-bound op's target is a ratio of at least 0.9.
#include <omp.h>

#include <cstring>
#include <memory>

#include "driver.h"

namespace canopy_bench {
namespace {

constexpr int kCopyThreads = 2;
constexpr size_t kAlignment = 64;

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using HostBytes = std::unique_ptr<unsigned char, FreeDeleter>;

HostBytes AlignedBytes(size_t bytes) {
  return HostBytes(
      static_cast<unsigned char*>(std::aligned_alloc(kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment)));
}

void RunOne(const Settings& settings, const std::string& op, const DtypeInfo& dtype, const std::string& problem,
            const std::vector<int64_t>& shape, Session& session) {
  Result result;
  result.driver = "unary";
  result.op = op;
  result.dtype = dtype.name;
  result.problem = problem;
  const std::string label = "[unary] op=" + op + " dt=" + dtype.name + " " + problem;
  Random random(settings.seed != Settings::kFreshSeed ? settings.seed : FreshSeed());
  const HostTensor a = RandomTensor(dtype, shape, random, -4, 4);
  const int64_t n = a.Elements();
  const size_t bytes = static_cast<size_t>(n) * dtype.size;
  DeviceBuffer in_device, out_device, workspace;
  in_device.Upload(a);
  out_device.Reserve(bytes);
  Tensor in_tensor(shape, dtype.acl, in_device.get()), out_tensor(shape, dtype.acl, out_device.get());
  std::string error;
  const auto call = RegisteredCall(op, {in_tensor.get(), out_tensor.get()}, {}, {}, error);
  if (call == nullptr) Die("unary: %s", error.c_str());
  std::string message;
  if (RunCanopyOnce(*call, workspace, message) != 0) Die("unary: %s failed: %s", op.c_str(), message.c_str());
  result.flops = static_cast<double>(n);
  result.bytes = 2.0 * static_cast<double>(bytes);
  result.peak_gflops = session.machine().f32_gflops;
  result.peak_gbps = session.machine().BandwidthGbps();

  // The copy loop's buffers, first touched by the threads that copy them.
  HostBytes src = AlignedBytes(bytes), dst = AlignedBytes(bytes);
  unsigned char* s = src.get();
  unsigned char* d = dst.get();
  const auto copy = [=](bool first_touch) {
    return RunOnEngine([=] {
      const auto start = Clock::now();
#pragma omp parallel num_threads(kCopyThreads)
      {
        const size_t count = omp_get_num_threads(), id = omp_get_thread_num();
        const size_t begin = bytes * id / count, end = bytes * (id + 1) / count;
        if (first_touch) {
          std::memset(s + begin, 1, end - begin);
          std::memset(d + begin, 0, end - begin);
        } else {
          std::memcpy(d + begin, s + begin, end - begin);
        }
      }
      return MicrosecondsBetween(start, Clock::now());
    });
  };
  copy(true);
  result.reference_name = "copy-loop:" + std::to_string(kCopyThreads) + "t";
  const PairTiming timing = MeasurePair(settings, *call, workspace, [&] { return copy(false); });
  SetTiming(result, timing);
  std::printf("%s: canopy %.3f ms %.1f GB/s | %s %.3f ms %.1f GB/s | canopy/copy %.3f (paired %.3f)\n", label.c_str(),
              result.time_us * 1e-3, result.Gbps(), result.reference_name.c_str(), result.reference_us * 1e-3,
              result.ReferenceGbps(), result.Ratio(), result.paired_ratio);
  session.Record(result);
}

}  // namespace

void RunUnaryDriver(const Settings& settings, const std::string& problem, Session& session) {
  std::vector<int64_t> shape;
  if (!ParseDims(problem, shape)) Die("unary problem '%s' is not like 16M or 1024x1024", problem.c_str());
  for (const std::string& op : OpsOf(settings, *FindDriver("unary"))) {
    for (const std::string& dtype : settings.dtypes) RunOne(settings, op, DtypeOf(dtype), problem, shape, session);
  }
}

}  // namespace canopy_bench
