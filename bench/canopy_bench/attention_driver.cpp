// --driver=attention: aclnnFusedInferAttentionScoreV2 as an LLM client calls it
// (layout BSND, grouped-query heads, K and V a cache of KV positions, no mask:
// every query row sees every key). The yardstick depends on the shape, as
// issue [perf] frames the decoder layer's roofline:
//   Sq <= 4 (decode): a plain all-threads read of the K and V bytes; canopy/ref
//     is the fraction of that streaming rate the op reaches;
//   Sq > 4 (prefill): Canopy's own bf16 aclnnMatmul doing the same
//     multiply-adds (the two products QK^T and PV of every head as one
//     [N Sq, D] x [D, 2 KV] product); canopy/ref is attention's speed relative
//     to it.
// --mode=C checks sampled output rows against float64.
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "driver.h"
#include "reference_loops.h"

namespace canopy_bench {
namespace {

constexpr int64_t kDecodeRows = 4;  // the kernel's few-query-rows path (docs/perf.md)
constexpr int kCheckedRows = 16;

struct Problem {
  int64_t batch = 0, sq = 0, heads = 0, kv_heads = 0, dim = 0, kv = 0;
};

// "BxSqxNxNkvxDxKV".
bool ParseProblem(const std::string& text, Problem& p) {
  std::vector<int64_t> dims;
  if (!ParseDims(text, dims) || dims.size() != 6) return false;
  p = {dims[0], dims[1], dims[2], dims[3], dims[4], dims[5]};
  return p.batch > 0 && p.sq > 0 && p.heads > 0 && p.kv_heads > 0 && p.heads % p.kv_heads == 0 && p.dim > 0 && p.kv > 0;
}

// The float64 output row (b, s, h) of softmax(q k^T / sqrt(D)) v.
std::vector<double> ReferenceRow(const Problem& p, const HostTensor& q, const HostTensor& k, const HostTensor& v,
                                 int64_t b, int64_t s, int64_t h) {
  const int64_t kh = h / (p.heads / p.kv_heads);
  const double scale = 1.0 / std::sqrt(static_cast<double>(p.dim));
  std::vector<double> scores(static_cast<size_t>(p.kv));
  double max = -INFINITY;
  for (int64_t j = 0; j < p.kv; ++j) {
    double dot = 0;
    for (int64_t e = 0; e < p.dim; ++e) {
      dot += q.values[static_cast<size_t>(((b * p.sq + s) * p.heads + h) * p.dim + e)] *
             k.values[static_cast<size_t>(((b * p.kv + j) * p.kv_heads + kh) * p.dim + e)];
    }
    scores[static_cast<size_t>(j)] = dot * scale;
    max = std::max(max, dot * scale);
  }
  double sum = 0;
  for (double& score : scores) sum += (score = std::exp(score - max));
  std::vector<double> row(static_cast<size_t>(p.dim), 0.0);
  for (int64_t j = 0; j < p.kv; ++j) {
    for (int64_t e = 0; e < p.dim; ++e) {
      row[static_cast<size_t>(e)] += scores[static_cast<size_t>(j)] / sum *
                                     v.values[static_cast<size_t>(((b * p.kv + j) * p.kv_heads + kh) * p.dim + e)];
    }
  }
  return row;
}

void RunOne(const Settings& settings, const std::string& op, const std::string& dtype_name, const std::string& problem,
            const Problem& p, Session& session) {
  Result result;
  result.driver = "attention";
  result.op = op;
  result.dtype = dtype_name;
  result.problem = problem;
  const std::string label = "[attention] op=" + op + " dt=" + dtype_name + " " + problem;
  const auto skip = [&](const std::string& why) {
    std::printf("%s: SKIPPED (%s)\n", label.c_str(), why.c_str());
    result.status = "skip";
    result.note = why;
    session.Record(result);
  };
  if (op != "fia") return skip("unknown op '" + op + "' (fia)");
  if (dtype_name != "f16" && dtype_name != "bf16") return skip("attention takes f16 or bf16 (--dt)");
  const DtypeInfo& dtype = DtypeOf(dtype_name);
  const uint64_t seed = settings.seed == Settings::kFreshSeed ? FreshSeed() : settings.seed;
  Random random(seed);

  const HostTensor q = RandomTensor(dtype, {p.batch, p.sq, p.heads, p.dim}, random, -1, 1);
  const HostTensor k = RandomTensor(dtype, {p.batch, p.kv, p.kv_heads, p.dim}, random, -1, 1);
  const HostTensor v = RandomTensor(dtype, {p.batch, p.kv, p.kv_heads, p.dim}, random, -1, 1);
  DeviceBuffer q_device(q.bytes.size()), k_device(k.bytes.size()), v_device(v.bytes.size()), out_device(q.bytes.size());
  q_device.Upload(q);
  k_device.Upload(k);
  v_device.Upload(v);
  Tensor q_tensor(q.shape, dtype.acl, q_device.get()), out_tensor(q.shape, dtype.acl, out_device.get());
  // The lists own their tensors (aclDestroyTensorList destroys them).
  aclTensor* k_tensor = aclCreateTensor(k.shape.data(), 4, dtype.acl, ContiguousStrides(k.shape).data(), 0,
                                        ACL_FORMAT_ND, k.shape.data(), 4, k_device.get());
  aclTensor* v_tensor = aclCreateTensor(v.shape.data(), 4, dtype.acl, ContiguousStrides(v.shape).data(), 0,
                                        ACL_FORMAT_ND, v.shape.data(), 4, v_device.get());
  aclTensorList* keys = aclCreateTensorList(&k_tensor, 1);
  aclTensorList* values = aclCreateTensorList(&v_tensor, 1);
  std::vector<int64_t> lengths(static_cast<size_t>(p.batch), p.kv);
  aclIntArray* kv_lengths = aclCreateIntArray(lengths.data(), lengths.size());
  char layout[] = "BSND";
  constexpr int64_t kAllTokens = 2147483647;
  const double scale = 1.0 / std::sqrt(static_cast<double>(p.dim));
  CanopyCall call;
  call.phase1 = [&](uint64_t* workspace_size, aclOpExecutor** executor) {
    return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
        q_tensor.get(), keys, values, nullptr, nullptr, nullptr, kv_lengths, nullptr, nullptr, nullptr, nullptr,
        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
        nullptr, p.heads, scale, kAllTokens, kAllTokens, layout, p.kv_heads, /*sparseMode=*/0, /*innerPrecise=*/0,
        /*blockSize=*/0, /*antiquantMode=*/0, /*softmaxLseFlag=*/false, /*keyAntiquantMode=*/0,
        /*valueAntiquantMode=*/0, out_tensor.get(), nullptr, workspace_size, executor);
  };
  call.phase2 = aclnnFusedInferAttentionScoreV2;
  const auto release = [&] {
    aclDestroyTensorList(keys);
    aclDestroyTensorList(values);
    aclDestroyIntArray(kv_lengths);
  };

  DeviceBuffer workspace;
  std::string message;
  if (const aclnnStatus status = RunCanopyOnce(call, workspace, message); status != 0) {
    std::printf("%s: ERROR status %d: %s\n", label.c_str(), status, message.c_str());
    result.status = "error";
    result.note = message;
    session.Record(result);
    return release();
  }
  const double rows = static_cast<double>(p.batch * p.sq * p.heads);
  result.flops = 4.0 * rows * static_cast<double>(p.kv) * static_cast<double>(p.dim);
  const size_t kv_bytes = k.bytes.size() + v.bytes.size();
  result.bytes = static_cast<double>(kv_bytes + 2 * q.bytes.size());
  result.peak_gflops = session.machine().ComputeCeiling(dtype_name);
  result.peak_gbps = session.machine().BandwidthGbps();

  if (settings.mode == Mode::kCorrectness) {
    // Sampled rows against float64; the bound allows the inputs' rounding of
    // the probabilities and the output's rounding (values are in [-1, 1]).
    std::vector<unsigned char> got(q.bytes.size());
    out_device.Download(got.data(), got.size());
    double worst = 0;
    for (int i = 0; i < kCheckedRows; ++i) {
      const auto pick = [&](int64_t n) { return static_cast<int64_t>(random.Next() % static_cast<uint64_t>(n)); };
      const int64_t b = pick(p.batch), s = pick(p.sq), h = pick(p.heads);
      const std::vector<double> want = ReferenceRow(p, q, k, v, b, s, h);
      for (int64_t e = 0; e < p.dim; ++e) {
        const double have =
            LoadDouble(dtype, got.data(), static_cast<size_t>(((b * p.sq + s) * p.heads + h) * p.dim + e));
        const double bound = 4 * UnitRoundoff(dtype) * (std::fabs(want[static_cast<size_t>(e)]) + 1.0 / 8);
        worst = std::max(worst, std::fabs(have - want[static_cast<size_t>(e)]) / bound);
      }
    }
    char note[96];
    std::snprintf(note, sizeof note, "max error %.3g of bound", worst);
    result.note = note;
    if (!(worst <= 1)) result.status = "fail";
    std::printf("%s: %s (%s)\n", label.c_str(), worst <= 1 ? "PASSED" : "FAILED", note);
    session.Record(result);
    return release();
  }

  std::function<double()> reference_once;
  DeviceBuffer a_device, b_device, c_device, reference_workspace;
  std::unique_ptr<Tensor> a_tensor, b_tensor, c_tensor;
  std::unique_ptr<CanopyCall> matmul;
  std::string error;
  if (settings.reference && p.sq <= kDecodeRows) {
    result.reference_name = "plain-read-loop:" + std::to_string(omp_get_max_threads()) + "t";
    const void* kd = k_device.get();
    const void* vd = v_device.get();
    const size_t kb = k.bytes.size(), vb = v.bytes.size();
    reference_once = [kd, vd, kb, vb] {
      return RunOnEngine([&] { return PlainReadLoop(kd, kb) + PlainReadLoop(vd, vb); });
    };
  } else if (settings.reference) {
    const DtypeInfo& bf16 = DtypeOf("bf16");
    const int64_t m = p.batch * p.heads * p.sq, n = 2 * p.kv;
    const HostTensor a = RandomTensor(bf16, {m, p.dim}, random, -1, 1);
    const HostTensor bm = RandomTensor(bf16, {p.dim, n}, random, -1, 1);
    a_device = DeviceBuffer(a.bytes.size());
    a_device.Upload(a);
    b_device = DeviceBuffer(bm.bytes.size());
    b_device.Upload(bm);
    c_device = DeviceBuffer(static_cast<size_t>(m * n) * bf16.size);
    a_tensor = std::make_unique<Tensor>(a.shape, ACL_BF16, a_device.get());
    b_tensor = std::make_unique<Tensor>(bm.shape, ACL_BF16, b_device.get());
    c_tensor = std::make_unique<Tensor>(std::vector<int64_t>{m, n}, ACL_BF16, c_device.get());
    matmul = RegisteredCall("Matmul", {a_tensor->get(), b_tensor->get(), c_tensor->get()}, {}, {0}, error);
    if (matmul == nullptr) Die("bf16 Matmul: %s", error.c_str());
    result.reference_name = "canopy-bf16-matmul";
    reference_once = [&] { return TimeCanopyOnce(*matmul, reference_workspace).device_us; };
  }
  const PairTiming timing = MeasurePair(settings, call, workspace, reference_once);
  SetTiming(result, timing);
  PrintTimingLine(label, result, true);
  session.Record(result);
  release();
}

}  // namespace

void RunAttentionDriver(const Settings& settings, const std::string& problem, Session& session) {
  Problem p;
  if (!ParseProblem(problem, p)) {
    Die("attention problem '%s' is not like 1x1x32x8x128x4096 (B x Sq x N x Nkv x D x KV)", problem.c_str());
  }
  const Driver& driver = *FindDriver("attention");
  for (const std::string& op : OpsOf(settings, driver)) {
    for (const std::string& dtype : settings.dtypes) RunOne(settings, op, dtype, problem, p, session);
  }
}

}  // namespace canopy_bench
