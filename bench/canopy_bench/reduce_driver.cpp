// The reduce driver: reductions and the row operations built on them.
//  * sum (ReduceSum), mean: over any dims of a contiguous tensor (problem
//    SHAPE:DIMS); reference: a plain two-thread read loop over the input bytes.
//  * softmax, rmsnorm, layernorm: over the last dim of a contiguous [rows, cols]
//    tensor (gamma, and LayerNorm's beta, of x's dtype; rstd and mean in f32);
//    reference: a plain two-thread copy loop over x's bytes, the read-once,
//    write-once traffic such an op cannot go below.
// The references read Canopy's own input buffer (and write a device buffer of
// their own): memory of the same kind, in the same cache state.
// Bytes are the op's minimum traffic (every input read once, every output
// written once), so Canopy's GB/s and the reference's compare rates of moving
// the same bytes. Correctness mode checks against float64 references.
#include <omp.h>

#include <cmath>
#include <cstring>
#include <memory>

#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "driver.h"
#include "reference_loops.h"

namespace canopy_bench {
namespace {

constexpr int kCopyThreads = 2;
constexpr double kEps = 1e-5;

bool IsRowOp(const std::string& op) { return op == "softmax" || op == "rmsnorm" || op == "layernorm"; }

// "4096x4096:0" -> shape {4096, 4096}, dims {0}; "4096x4096:0,1" two dims; no ':' is every dim.
bool ParseProblem(const std::string& text, std::vector<int64_t>& shape, std::vector<int64_t>& dims) {
  const size_t colon = text.find(':');
  if (!ParseDims(text.substr(0, colon), shape)) return false;
  dims.clear();
  if (colon == std::string::npos) return true;
  for (const std::string& item : SplitList(text.substr(colon + 1))) dims.push_back(std::stoll(item));
  return true;
}

// A two-thread copy of `bytes` from src to dst (static halves, as Canopy splits work).
std::function<double()> CopyLoop(const unsigned char* src, unsigned char* dst, size_t bytes) {
  return [src, dst, bytes] {
    return RunOnEngine([&] {
      const auto start = Clock::now();
#pragma omp parallel num_threads(kCopyThreads)
      {
        const size_t count = omp_get_num_threads(), id = omp_get_thread_num();
        const size_t begin = bytes * id / count, end = bytes * (id + 1) / count;
        std::memcpy(dst + begin, src + begin, end - begin);
      }
      return MicrosecondsBetween(start, Clock::now());
    });
  };
}

// Everything one measured call owns: buffers, tensors, the call and its float64 check.
struct Job {
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  std::vector<std::unique_ptr<Tensor>> tensors;
  aclIntArray* int_array = nullptr;
  std::unique_ptr<CanopyCall> call;
  double bytes = 0;                   // minimum traffic
  std::function<double()> reference;  // the plain loop over the same bytes
  std::string reference_name;
  std::function<double()> check;  // correctness: worst error over its bound

  ~Job() {
    tensors.clear();
    if (int_array != nullptr) aclDestroyIntArray(int_array);
  }
  aclTensor* Add(const std::vector<int64_t>& shape, const DtypeInfo& dtype, const HostTensor* data = nullptr) {
    int64_t n = 1;
    for (int64_t e : shape) n *= e;
    buffers.push_back(std::make_unique<DeviceBuffer>(static_cast<size_t>(n) * dtype.size));
    if (data != nullptr) buffers.back()->Upload(*data);
    tensors.push_back(std::make_unique<Tensor>(shape, dtype.acl, buffers.back()->get()));
    return tensors.back()->get();
  }
  std::vector<double> Download(size_t index, const DtypeInfo& dtype, int64_t n) const {
    std::vector<unsigned char> raw(static_cast<size_t>(n) * dtype.size);
    buffers[index]->Download(raw.data(), raw.size());
    std::vector<double> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = LoadDouble(dtype, raw.data(), i);
    return values;
  }
};

// ReduceSum / Mean over `dims` (a float64 sum is the reference).
void MakeReduction(Job& job, const std::string& op, const DtypeInfo& dtype, const std::vector<int64_t>& shape,
                   const std::vector<int64_t>& dims, Random& random, bool keep_host) {
  auto a = std::make_shared<HostTensor>(RandomTensor(dtype, shape, random, -1, 1));
  const int64_t n = a->Elements();
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(static_cast<size_t>(rank), dims.empty());
  for (int64_t d : dims) reduced[static_cast<size_t>(d < 0 ? d + rank : d)] = true;
  std::vector<int64_t> out_shape;
  int64_t outputs = 1, count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    (reduced[static_cast<size_t>(d)] ? count : outputs) *= shape[static_cast<size_t>(d)];
    if (!reduced[static_cast<size_t>(d)]) out_shape.push_back(shape[static_cast<size_t>(d)]);
  }
  aclTensor* x = job.Add(shape, dtype, a.get());
  aclTensor* out = job.Add(out_shape, dtype);
  const size_t bytes = a->bytes.size();
  if (!keep_host) *a = HostTensor{};  // performance runs never check (as MakeRowOp)
  job.int_array = aclCreateIntArray(dims.data(), dims.size());
  std::string error;
  job.call = RegisteredCall(op == "sum" ? "ReduceSum" : op, {x, out}, {}, {0, dtype.acl}, {job.int_array}, error);
  if (job.call == nullptr) Die("reduce: %s", error.c_str());
  job.bytes = static_cast<double>(n + outputs) * static_cast<double>(dtype.size);
  // The reference reads the same device buffer Canopy reads.
  const void* data = job.buffers[0]->get();
  job.reference_name = "read-loop:" + std::to_string(omp_get_max_threads()) + "t";
  job.reference = [data, bytes] { return RunOnEngine([&] { return PlainReadLoop(data, bytes); }); };
  job.check = [&job, a, &dtype, shape, reduced, n, outputs, count, mean = op == "mean"] {
    // The bound covers f32 accumulation (pairwise) and one rounding to the dtype.
    const auto rank = static_cast<int64_t>(shape.size());
    std::vector<double> want(static_cast<size_t>(outputs), 0.0), magnitude(static_cast<size_t>(outputs), 0.0);
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
      want[static_cast<size_t>(o)] += a->values[static_cast<size_t>(i)];
      magnitude[static_cast<size_t>(o)] += std::fabs(a->values[static_cast<size_t>(i)]);
    }
    const std::vector<double> got = job.Download(1, dtype, outputs);
    double worst = 0;
    for (int64_t o = 0; o < outputs; ++o) {
      double expected = want[static_cast<size_t>(o)], scale = magnitude[static_cast<size_t>(o)];
      if (mean) expected /= static_cast<double>(count), scale /= static_cast<double>(count);
      const double bound = 2 * UnitRoundoff(dtype) * std::fabs(expected) + 1e-6 * scale + 1e-30;
      worst = std::max(worst, std::fabs(got[static_cast<size_t>(o)] - expected) / bound);
    }
    return worst;
  };
}

// Softmax, RmsNorm or LayerNorm over the last dim of [rows, cols].
void MakeRowOp(Job& job, const std::string& op, const DtypeInfo& dtype, const std::vector<int64_t>& shape,
               Random& random, bool keep_host) {
  if (shape.size() != 2) Die("reduce: %s takes a ROWSxCOLS problem", op.c_str());
  const int64_t rows = shape[0], cols = shape[1], n = rows * cols;
  const DtypeInfo& f32 = DtypeOf("f32");
  auto x = std::make_shared<HostTensor>(RandomTensor(dtype, shape, random, -4, 4));
  auto gamma = std::make_shared<HostTensor>(RandomTensor(dtype, {cols}, random, 0.5, 2));
  auto beta = std::make_shared<HostTensor>(RandomTensor(dtype, {cols}, random, -1, 1));
  aclTensor* in = job.Add(shape, dtype, x.get());
  // Performance runs never check: the host copy (8 bytes a value) goes, so that
  // problems beyond the cache (512M 16-bit elements) fit in a few GiB.
  if (!keep_host) *x = HostTensor{};
  job.bytes = 2.0 * static_cast<double>(n) * static_cast<double>(dtype.size);
  CanopyCall& call = *(job.call = std::make_unique<CanopyCall>());
  if (op == "softmax") {
    aclTensor* out = job.Add(shape, dtype);
    call.phase1 = [in, out](uint64_t* size, aclOpExecutor** executor) {
      return aclnnSoftmaxGetWorkspaceSize(in, -1, out, size, executor);
    };
    call.phase2 = aclnnSoftmax;
  } else if (op == "rmsnorm") {
    aclTensor* g = job.Add({cols}, dtype, gamma.get());
    aclTensor* y = job.Add(shape, dtype);
    aclTensor* rstd = job.Add({rows, 1}, f32);
    call.phase1 = [in, g, y, rstd](uint64_t* size, aclOpExecutor** executor) {
      return aclnnRmsNormGetWorkspaceSize(in, g, kEps, y, rstd, size, executor);
    };
    call.phase2 = aclnnRmsNorm;
    job.bytes += static_cast<double>(cols * dtype.size + rows * f32.size);
  } else {
    aclTensor* g = job.Add({cols}, dtype, gamma.get());
    aclTensor* b = job.Add({cols}, dtype, beta.get());
    aclTensor* y = job.Add(shape, dtype);
    aclTensor* mean = job.Add({rows, 1}, f32);
    aclTensor* rstd = job.Add({rows, 1}, f32);
    job.int_array = aclCreateIntArray(&cols, 1);
    call.phase1 = [in, g, b, y, mean, rstd, normalized = job.int_array](uint64_t* size, aclOpExecutor** executor) {
      return aclnnLayerNormGetWorkspaceSize(in, normalized, g, b, kEps, y, mean, rstd, size, executor);
    };
    call.phase2 = aclnnLayerNorm;
    job.bytes += static_cast<double>(2 * cols * dtype.size + 2 * rows * f32.size);
  }
  // The reference copies x's device buffer into another device buffer (memory of the same kind).
  const size_t bytes = static_cast<size_t>(n) * dtype.size;
  job.buffers.push_back(std::make_unique<DeviceBuffer>(bytes));
  job.buffers.back()->Poison();
  job.reference_name = "copy-loop:" + std::to_string(kCopyThreads) + "t";
  job.reference = CopyLoop(static_cast<const unsigned char*>(job.buffers[0]->get()),
                           static_cast<unsigned char*>(job.buffers.back()->get()), bytes);
  job.check = [&job, op, &dtype, x, gamma, beta, rows, cols, n] {
    const std::vector<double> got = job.Download(op == "softmax" ? 1 : op == "rmsnorm" ? 2 : 3, dtype, n);
    const double u = UnitRoundoff(dtype);
    double worst = 0;
    std::vector<double> want(static_cast<size_t>(cols)), scale(static_cast<size_t>(cols));
    for (int64_t r = 0; r < rows; ++r) {
      const double* v = x->values.data() + r * cols;
      double max = -INFINITY, sum = 0, squares = 0;
      for (int64_t j = 0; j < cols; ++j) max = std::max(max, v[j]), sum += v[j];
      const double mean = sum / static_cast<double>(cols);
      for (int64_t j = 0; j < cols; ++j) {
        squares += op == "layernorm" ? (v[j] - mean) * (v[j] - mean) : v[j] * v[j];
      }
      const double rstd = 1 / std::sqrt(squares / static_cast<double>(cols) + kEps);
      double exp_sum = 0;
      for (int64_t j = 0; j < cols; ++j) exp_sum += std::exp(v[j] - max);
      for (int64_t j = 0; j < cols; ++j) {
        const auto k = static_cast<size_t>(j);
        if (op == "softmax") {
          want[k] = std::exp(v[j] - max) / exp_sum;
          scale[k] = want[k];
        } else if (op == "rmsnorm") {
          want[k] = v[j] * rstd * gamma->values[k];
          scale[k] = std::fabs(want[k]);
        } else {
          const double normalised = (v[j] - mean) * rstd * gamma->values[k];
          want[k] = normalised + beta->values[k];
          scale[k] = std::fabs(normalised) + std::fabs(beta->values[k]);
        }
      }
      // A few roundings of the dtype, relative to the terms' magnitude (f32 arithmetic inside).
      for (int64_t j = 0; j < cols; ++j) {
        const auto k = static_cast<size_t>(j);
        const double bound = 4 * u * scale[k] + 64 * std::ldexp(1.0, -24) * scale[k] + SmallestNormal(dtype);
        worst = std::max(worst, std::fabs(got[static_cast<size_t>(r * cols + j)] - want[k]) / bound);
      }
    }
    return worst;
  };
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
  Job job;
  if (IsRowOp(op)) {
    MakeRowOp(job, op, dtype, shape, random, settings.mode == Mode::kCorrectness);
  } else {
    MakeReduction(job, op, dtype, shape, dims, random, settings.mode == Mode::kCorrectness);
  }
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  result.flops = static_cast<double>(n);
  result.bytes = job.bytes;
  result.peak_gflops = session.machine().f32_gflops;
  result.peak_gbps = session.machine().BandwidthGbps();
  DeviceBuffer workspace;
  std::string message;
  if (aclnnStatus s = RunCanopyOnce(*job.call, workspace, message, &result.path); s != 0) {
    std::printf("%s: ERROR status %d: %s\n", label.c_str(), s, message.c_str());
    result.status = "error";
    result.note = message;
    session.Record(result);
    return;
  }
  if (settings.mode == Mode::kCorrectness) {
    const double worst = job.check();
    char note[96];
    std::snprintf(note, sizeof note, "max error %.3g of bound", worst);
    result.note = note;
    if (!(worst <= 1)) result.status = "fail";
    std::printf("%s: %s (%s)\n", label.c_str(), worst <= 1 ? "PASSED" : "FAILED", note);
    if (worst > 1)
      std::printf("  reproduce: %s\n", Reproducer(settings, op, "--dt=" + dtype_name, seed, problem).c_str());
    session.Record(result);
    return;
  }
  if (settings.reference) result.reference_name = job.reference_name;
  const PairTiming timing = MeasurePair(settings, *job.call, workspace, settings.reference ? job.reference : nullptr);
  SetTiming(result, timing);
  std::printf("%s: canopy %.3f ms %.1f GB/s", label.c_str(), result.time_us * 1e-3, result.Gbps());
  if (result.reference_us > 0) {
    std::printf(" | %s %.3f ms %.1f GB/s | canopy/ref %.3f (paired %.3f)", result.reference_name.c_str(),
                result.reference_us * 1e-3, result.ReferenceGbps(), result.Ratio(), result.paired_ratio);
  }
  std::printf("\n  path: %s\n", result.path.c_str());
  session.Record(result);
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
