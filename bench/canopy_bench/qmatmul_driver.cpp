// --driver=qmatmul: aclnnWeightQuantBatchMatmulV2 with an INT8 (op w8) or INT4
// (op w4) weight and one f16 / bf16 scale per group of G rows along K, the
// weight and its scales passed as llama.cpp's CANN backend passes them: stored
// [N, K] and [N, K / G], seen through transposed [K, N] and [K / G, N] views. The yardstick depends on the shape, as
// issue [llm] sets its targets:
//   M <= 16 (decode): a plain all-threads read of the same quantised weight
//     bytes; canopy/ref is the fraction of that streaming rate the product
//     reaches (target 0.7);
//   M > 16 (prefill): Canopy's own bf16 aclnnMatmul of the same shape with a
//     dense weight; canopy/ref is the quantised product's speed relative to it
//     (target 1 / 1.3 = 0.77).
// --mode=C checks the product against float64 on sampled outputs.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "driver.h"
#include "reference_loops.h"

namespace canopy_bench {
namespace {

constexpr int64_t kDecodeRows = 16;  // the fused kernel's limit (docs/perf.md)
constexpr int64_t kDefaultGroup = 32;
constexpr int kCheckedColumns = 64;

struct Problem {
  int64_t m = 0, k = 0, n = 0, group = kDefaultGroup;
};

// "MxKxN" or "MxKxN:gG".
bool ParseProblem(const std::string& text, Problem& problem) {
  const size_t colon = text.find(':');
  std::vector<int64_t> dims;
  if (!ParseDims(text.substr(0, colon), dims) || dims.size() != 3) return false;
  problem.m = dims[0];
  problem.k = dims[1];
  problem.n = dims[2];
  if (colon != std::string::npos) {
    const std::string group = text.substr(colon + 1);
    if (group.size() < 2 || group[0] != 'g') return false;
    problem.group = std::stoll(group.substr(1));
  }
  return problem.m > 0 && problem.k > 0 && problem.n > 0 && problem.group > 0 && problem.k % problem.group == 0;
}

// A [rows, cols] view of a matrix stored [cols, rows] (rows contiguous).
aclTensor* TransposedView(const std::vector<int64_t>& shape, aclDataType dtype, void* data) {
  const std::vector<int64_t> strides = {1, shape[0]}, storage = {shape[1], shape[0]};
  return aclCreateTensor(shape.data(), 2, dtype, strides.data(), 0, ACL_FORMAT_ND, storage.data(), 2, data);
}

void RunOne(const Settings& settings, const std::string& op, const std::string& dtype_name, const std::string& problem,
            const Problem& p, Session& session) {
  Result result;
  result.driver = "qmatmul";
  result.op = op;
  result.dtype = dtype_name;
  result.problem = problem;
  const std::string label = "[qmatmul] op=" + op + " dt=" + dtype_name + " " + problem;
  const auto skip = [&](const std::string& why) {
    std::printf("%s: SKIPPED (%s)\n", label.c_str(), why.c_str());
    result.status = "skip";
    result.note = why;
    session.Record(result);
  };
  if (op != "w8" && op != "w4") return skip("unknown op '" + op + "' (w8, w4)");
  if (dtype_name != "f16" && dtype_name != "bf16") return skip("activations are f16 or bf16 (--dt)");
  const bool int4 = op == "w4";
  if (int4 && p.k % 2 != 0) return skip("an INT4 weight packs two values a byte along K: K must be even");
  const DtypeInfo& dtype = DtypeOf(dtype_name);
  const uint64_t seed = settings.seed == Settings::kFreshSeed ? FreshSeed() : settings.seed;
  Random random(seed);

  // Weight codes: INT8 in [-127, 127], INT4 in [-8, 7] packed even-low.
  const int64_t groups = p.k / p.group;
  const size_t weight_bytes = static_cast<size_t>(p.n * (int4 ? p.k / 2 : p.k));
  std::vector<int8_t> codes(static_cast<size_t>(p.n * p.k));
  for (int8_t& c : codes) c = static_cast<int8_t>(int4 ? random.Uniform(-8, 8) : random.Uniform(-127, 128));
  std::vector<unsigned char> packed(weight_bytes);
  for (size_t i = 0; i < packed.size(); ++i) {
    packed[i] = int4 ? static_cast<unsigned char>((codes[2 * i] & 0xf) | ((codes[2 * i + 1] & 0xf) << 4))
                     : static_cast<unsigned char>(codes[i]);
  }
  const double code_range = int4 ? 8 : 127;
  const HostTensor x = RandomTensor(dtype, {p.m, p.k}, random, -1, 1);
  // Stored [N, groups] and seen as [groups, N], like the weight.
  const HostTensor scale = RandomTensor(dtype, {p.n, groups}, random, 0.5 / code_range, 1.5 / code_range);

  DeviceBuffer x_device(x.bytes.size()), w_device(weight_bytes), scale_device(scale.bytes.size()),
      y_device(static_cast<size_t>(p.m * p.n) * dtype.size);
  x_device.Upload(x);
  scale_device.Upload(scale);
  BENCH_CHECK_ACL(aclrtMemcpy(w_device.get(), weight_bytes, packed.data(), weight_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  Tensor x_tensor({p.m, p.k}, dtype.acl, x_device.get());
  aclTensor* scale_view = TransposedView({groups, p.n}, dtype.acl, scale_device.get());
  Tensor y_tensor({p.m, p.n}, dtype.acl, y_device.get());
  aclTensor* weight = TransposedView({p.k, p.n}, int4 ? ACL_INT4 : ACL_INT8, w_device.get());
  std::string error;
  const auto call = RegisteredCall(
      "WeightQuantBatchMatmulV2",
      {x_tensor.get(), weight, scale_view, nullptr, nullptr, nullptr, nullptr, y_tensor.get()}, {}, {p.group}, error);
  DeviceBuffer workspace;
  std::string message;
  const aclnnStatus status = call == nullptr ? -1 : RunCanopyOnce(*call, workspace, message);
  if (status != 0) {
    if (call == nullptr) message = error;
    std::printf("%s: ERROR status %d: %s\n", label.c_str(), status, message.c_str());
    result.status = "error";
    result.note = message;
    session.Record(result);
    aclDestroyTensor(weight);
    aclDestroyTensor(scale_view);
    return;
  }
  result.flops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.k) * static_cast<double>(p.n);
  result.bytes = static_cast<double>(weight_bytes + scale.bytes.size() + x.bytes.size()) +
                 static_cast<double>(p.m * p.n) * static_cast<double>(dtype.size);
  result.peak_gflops = session.machine().ComputeCeiling(dtype_name);
  result.peak_gbps = session.machine().BandwidthGbps();

  if (settings.mode == Mode::kCorrectness) {
    // Sampled columns of every row, against float64 of the dequantised weight.
    // The bound: the product is accumulated in f32 over K terms, then rounded
    // once to the output dtype.
    std::vector<unsigned char> got(static_cast<size_t>(p.m * p.n) * dtype.size);
    y_device.Download(got.data(), got.size());
    double worst = 0;
    for (int c = 0; c < kCheckedColumns; ++c) {
      const int64_t col = static_cast<int64_t>(random.Next() % static_cast<uint64_t>(p.n));
      for (int64_t row = 0; row < p.m; ++row) {
        double want = 0, magnitude = 0;
        for (int64_t kk = 0; kk < p.k; ++kk) {
          const double w = codes[static_cast<size_t>(col * p.k + kk)] *
                           scale.values[static_cast<size_t>(col * groups + kk / p.group)];
          const double term = x.values[static_cast<size_t>(row * p.k + kk)] * w;
          want += term;
          magnitude += std::fabs(term);
        }
        const double bound =
            UnitRoundoff(dtype) * std::fabs(want) + 1e-6 * static_cast<double>(p.k) * magnitude + 1e-30;
        const double have = LoadDouble(dtype, got.data(), static_cast<size_t>(row * p.n + col));
        worst = std::max(worst, std::fabs(have - want) / bound);
      }
    }
    char note[96];
    std::snprintf(note, sizeof note, "max error %.3g of bound", worst);
    result.note = note;
    if (!(worst <= 1)) result.status = "fail";
    std::printf("%s: %s (%s)\n", label.c_str(), worst <= 1 ? "PASSED" : "FAILED", note);
    session.Record(result);
    aclDestroyTensor(weight);
    aclDestroyTensor(scale_view);
    return;
  }

  // The yardstick (see the file comment).
  std::function<double()> reference_once;
  DeviceBuffer dense_x_device, dense_w_device, dense_y_device, dense_workspace;
  std::unique_ptr<Tensor> dense_x, dense_w, dense_y;
  std::unique_ptr<CanopyCall> dense_call;
  if (settings.reference && p.m <= kDecodeRows) {
    result.reference_name = "plain-read-loop:" + std::to_string(omp_get_max_threads()) + "t";
    const void* data = w_device.get();
    reference_once = [data, weight_bytes] { return RunOnEngine([&] { return PlainReadLoop(data, weight_bytes); }); };
  } else if (settings.reference) {
    const DtypeInfo& bf16 = DtypeOf("bf16");
    const HostTensor dense_x_host = RandomTensor(bf16, {p.m, p.k}, random, -1, 1);
    const HostTensor dense_w_host = RandomTensor(bf16, {p.k, p.n}, random, -1, 1);
    dense_x_device = DeviceBuffer(dense_x_host.bytes.size());
    dense_x_device.Upload(dense_x_host);
    dense_w_device = DeviceBuffer(dense_w_host.bytes.size());
    dense_w_device.Upload(dense_w_host);
    dense_y_device = DeviceBuffer(static_cast<size_t>(p.m * p.n) * bf16.size);
    dense_x = std::make_unique<Tensor>(std::vector<int64_t>{p.m, p.k}, ACL_BF16, dense_x_device.get());
    dense_w = std::make_unique<Tensor>(std::vector<int64_t>{p.k, p.n}, ACL_BF16, dense_w_device.get());
    dense_y = std::make_unique<Tensor>(std::vector<int64_t>{p.m, p.n}, ACL_BF16, dense_y_device.get());
    dense_call = RegisteredCall("Matmul", {dense_x->get(), dense_w->get(), dense_y->get()}, {}, {0}, error);
    if (dense_call == nullptr) Die("bf16 Matmul: %s", error.c_str());
    result.reference_name = "canopy-bf16-matmul";
    reference_once = [&] { return TimeCanopyOnce(*dense_call, dense_workspace).device_us; };
  }
  const PairTiming timing = MeasurePair(settings, *call, workspace, reference_once);
  SetTiming(result, timing);
  PrintTimingLine(label, result, true);
  session.Record(result);
  aclDestroyTensor(weight);
  aclDestroyTensor(scale_view);
}

}  // namespace

void RunQmatmulDriver(const Settings& settings, const std::string& problem, Session& session) {
  Problem p;
  if (!ParseProblem(problem, p))
    Die("qmatmul problem '%s' is not like 1x4096x4096 or 512x4096x4096:g128", problem.c_str());
  const Driver& driver = *FindDriver("qmatmul");
  for (const std::string& op : OpsOf(settings, driver)) {
    for (const std::string& dtype : settings.dtypes) RunOne(settings, op, dtype, problem, p, session);
  }
}

}  // namespace canopy_bench
