// The reduce driver: ReduceSum and Mean over any dims of a contiguous tensor,
// against a float64 reference (correctness) or, for performance, a plain
// OpenMP read loop summing the same bytes (the memory-bandwidth yardstick).
#include <omp.h>

#include <cmath>
#include <cstring>

#include "driver.h"
#include "reference_loops.h"

namespace canopy_bench {
namespace {

// "4096x4096:0" -> shape {4096, 4096}, dims {0}; "4096x4096:0,1" two dims; no ':' is every dim.
bool ParseProblem(const std::string& text, std::vector<int64_t>& shape, std::vector<int64_t>& dims) {
  const size_t colon = text.find(':');
  if (!ParseDims(text.substr(0, colon), shape)) return false;
  dims.clear();
  if (colon == std::string::npos) return true;
  for (const std::string& item : SplitList(text.substr(colon + 1))) dims.push_back(std::stoll(item));
  return true;
}

void RunOne(const Settings& settings, const std::string& op, const std::string& dtype_name, const std::string& problem,
            const std::vector<int64_t>& shape, const std::vector<int64_t>& dims, Session& session) {
  const DtypeInfo& dtype = DtypeOf(dtype_name);
  Result result;
  result.driver = "reduce";
  result.op = op;
  result.dtype = dtype_name;
  result.problem = problem;
  const uint64_t seed = settings.seed == Settings::kFreshSeed ? FreshSeed() : settings.seed;
  const std::string label = "[reduce] op=" + op + " dt=" + dtype_name + " " + problem;
  Random random(seed);
  const HostTensor a = RandomTensor(dtype, shape, random, -1, 1);
  const int64_t n = a.Elements();
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(static_cast<size_t>(rank), dims.empty());
  for (int64_t d : dims) reduced[static_cast<size_t>(d < 0 ? d + rank : d)] = true;
  std::vector<int64_t> out_shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[static_cast<size_t>(d)]) out_shape.push_back(shape[static_cast<size_t>(d)]);
  }
  int64_t outputs = 1;
  for (int64_t e : out_shape) outputs *= e;

  DeviceBuffer in_device(static_cast<size_t>(n) * dtype.size), out_device(static_cast<size_t>(outputs) * dtype.size);
  in_device.Upload(a);
  DeviceBuffer workspace;
  Tensor x(shape, dtype.acl, in_device.get());
  Tensor out(out_shape, dtype.acl, out_device.get());
  aclIntArray* dim_array = aclCreateIntArray(dims.data(), dims.size());
  std::string error;
  const auto call =
      RegisteredCall(op == "sum" ? "ReduceSum" : op, {x.get(), out.get()}, {}, {0, dtype.acl}, {dim_array}, error);
  if (call == nullptr) {
    std::printf("%s: ERROR %s\n", label.c_str(), error.c_str());
    result.status = "error";
    result.note = error;
    session.Record(result);
    aclDestroyIntArray(dim_array);
    return;
  }
  result.flops = static_cast<double>(n);
  result.bytes = static_cast<double>(n + outputs) * static_cast<double>(dtype.size);
  result.peak_gflops = session.machine().f32_gflops;
  result.peak_gbps = session.machine().BandwidthGbps();
  std::string message;
  if (aclnnStatus s = RunCanopyOnce(*call, workspace, message); s != 0) {
    std::printf("%s: ERROR status %d: %s\n", label.c_str(), s, message.c_str());
    result.status = "error";
    result.note = message;
    session.Record(result);
    aclDestroyIntArray(dim_array);
    return;
  }
  if (settings.mode == Mode::kCorrectness) {
    // float64 reference; the bound covers f32 accumulation (pairwise) and one rounding to the dtype.
    std::vector<double> want(static_cast<size_t>(outputs), 0.0), magnitude(static_cast<size_t>(outputs), 0.0);
    int64_t count = 1;
    for (int64_t d = 0; d < rank; ++d) count *= reduced[static_cast<size_t>(d)] ? shape[static_cast<size_t>(d)] : 1;
    for (int64_t i = 0; i < n; ++i) {
      int64_t rest = i, o = 0, scale = 1;
      for (int64_t d = rank - 1; d >= 0; --d) {
        const int64_t index = rest % shape[static_cast<size_t>(d)];
        rest /= shape[static_cast<size_t>(d)];
        if (!reduced[static_cast<size_t>(d)]) {
          o += index * scale;
          scale *= shape[static_cast<size_t>(d)];
        }
      }
      want[static_cast<size_t>(o)] += a.values[static_cast<size_t>(i)];
      magnitude[static_cast<size_t>(o)] += std::fabs(a.values[static_cast<size_t>(i)]);
    }
    std::vector<unsigned char> got(static_cast<size_t>(outputs) * dtype.size);
    out_device.Download(got.data(), got.size());
    double worst = 0;
    for (int64_t o = 0; o < outputs; ++o) {
      double expected = want[static_cast<size_t>(o)], scale = magnitude[static_cast<size_t>(o)];
      if (op == "mean") expected /= static_cast<double>(count), scale /= static_cast<double>(count);
      const double bound = 2 * UnitRoundoff(dtype) * std::fabs(expected) + 1e-6 * scale + 1e-30;
      worst = std::max(worst, std::fabs(LoadDouble(dtype, got.data(), static_cast<size_t>(o)) - expected) / bound);
    }
    char note[96];
    std::snprintf(note, sizeof note, "max error %.3g of bound", worst);
    result.note = note;
    if (worst > 1) result.status = "fail";
    std::printf("%s: %s (%s)\n", label.c_str(), worst <= 1 ? "PASSED" : "FAILED", note);
    session.Record(result);
    aclDestroyIntArray(dim_array);
    return;
  }
  std::function<double()> reference_once;
  if (settings.reference && dtype.acl == ACL_FLOAT) {
    result.reference_name = "plain-read-loop:" + std::to_string(omp_get_max_threads()) + "t";
    const void* data = a.bytes.data();
    const size_t bytes = a.bytes.size();
    reference_once = [data, bytes] { return RunOnEngine([&] { return PlainReadLoop(data, bytes); }); };
  }
  const PairTiming timing = MeasurePair(settings, *call, workspace, reference_once);
  SetTiming(result, timing);
  std::printf("%s: canopy %.3f ms %.1f GB/s", label.c_str(), result.time_us * 1e-3, result.Gbps());
  if (result.reference_us > 0) {
    std::printf(" | %s %.3f ms %.1f GB/s | canopy/ref %.3f", result.reference_name.c_str(), result.reference_us * 1e-3,
                result.ReferenceGbps(), result.Ratio());
  }
  std::printf("\n");
  session.Record(result);
  aclDestroyIntArray(dim_array);
}

}  // namespace

void RunReduceDriver(const Settings& settings, const std::string& problem, Session& session) {
  std::vector<int64_t> shape, dims;
  if (!ParseProblem(problem, shape, dims)) Die("reduce problem '%s' is not like 4096x4096:0", problem.c_str());
  const Driver& driver = *FindDriver("reduce");
  for (const std::string& op : OpsOf(settings, driver)) {
    for (const std::string& dtype : settings.dtypes) RunOne(settings, op, dtype, problem, shape, dims, session);
  }
}

}  // namespace canopy_bench
