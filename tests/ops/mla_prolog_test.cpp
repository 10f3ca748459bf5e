// aclnnMlaProlog and aclnnMlaPrologV2WeightNz against a float64 reference of the whole formula, with
// the kernel's bf16 rounding of every intermediate (cQ, its RmsNorm, [qC | qR], [cKV | kR]):
// queryOut = qC @ weightUk per head, queryRopeOut = RoPE(qR) (even elements then odd, rotated as
// halves), kvCacheRef / krCacheRef rows RmsNorm(cKV) and RoPE(kR) at cacheIndex's slots (PA_BSND row
// major, PA_NZ as 16-column fractals; negative slots skipped; every other slot unchanged). The fixed
// dims of the A2 tiling (Hcq 1536, Hckv 512, D 128, Dr 64), each He it takes, 2-D and 4-D NZ weights,
// batch > 1, both layouts of tokenX, views, empty token and cache counts, slots past the cache failing
// the run, and the rejections with their codes. The quantised scenarios (INT8 weightUqQr; INT8 tokenX
// and down weights; BF16 or INT8 caches) against a float64 reference of the kernel's stages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_mla_prolog.h"
#include "aclnnop/aclnn_mla_prolog_v2_weight_nz.h"
#include "aclnnop/aclnn_mla_prolog_v3_weight_nz.h"
#include "llm_test_support.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kHcq = 1536, kHckv = 512, kD = 128, kDr = 64, kFrac = 16;
constexpr double kBf16Ulp = 0x1p-8;  // bf16's relative spacing

// A random bf16 matrix, row-major, as stored bytes.
struct Bf16Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<uint8_t> bytes;
  float At(int64_t i) const {
    uint16_t bits = 0;
    std::memcpy(&bits, bytes.data() + i * 2, 2);
    const uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float value = 0;
    std::memcpy(&value, &wide, sizeof value);
    return value;
  }
};

Bf16Matrix RandomBf16(uint64_t seed, int64_t rows, int64_t cols, double lo, double hi) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  Bf16Matrix m{rows, cols, {}};
  const auto count = static_cast<size_t>(rows * cols);
  m.bytes.resize(count * 2);
  for (size_t i = 0; i < count; ++i) {
    const uint16_t bits = DoubleToBf16(dist(engine));
    std::memcpy(m.bytes.data() + i * 2, &bits, 2);
  }
  return m;
}

// A row-major [rows, cols] matrix's bytes (`element` bytes each) as the NZ blocks
// [cols / c0, rows / 16, 16, c0], c0 the elements of 32 bytes.
std::vector<uint8_t> NzBytes(const std::vector<uint8_t>& bytes, int64_t rows, int64_t cols, int64_t element) {
  const int64_t c0 = 32 / element, row_bytes = c0 * element;
  std::vector<uint8_t> out(bytes.size());
  size_t at = 0;
  for (int64_t j1 = 0; j1 < cols / c0; ++j1) {
    for (int64_t k = 0; k < rows; ++k) {
      std::memcpy(out.data() + at, bytes.data() + (k * cols + j1 * c0) * element, static_cast<size_t>(row_bytes));
      at += static_cast<size_t>(row_bytes);
    }
  }
  return out;
}

// A random INT8 matrix, row-major.
struct Int8Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<uint8_t> bytes;
  double At(int64_t i) const { return static_cast<int8_t>(bytes[static_cast<size_t>(i)]); }
};

Int8Matrix RandomInt8(uint64_t seed, int64_t rows, int64_t cols) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> dist(-127, 127);
  Int8Matrix m{rows, cols, std::vector<uint8_t>(static_cast<size_t>(rows * cols))};
  for (uint8_t& b : m.bytes) b = static_cast<uint8_t>(static_cast<int8_t>(dist(engine)));
  return m;
}

// The weights of one He and one N: made once per process, shared by the cases.
struct DownWeights {
  Bf16Matrix dq, dkv_kr;
};
struct UpWeights {
  Bf16Matrix uq_qr, uk;  // uk as [N * D, Hckv]
};
const DownWeights& DownWeightsFor(int64_t he) {
  static std::map<int64_t, std::unique_ptr<DownWeights>> cache;
  auto& slot = cache[he];
  if (!slot) {
    slot = std::make_unique<DownWeights>();
    slot->dq = RandomBf16(static_cast<uint64_t>(he), he, kHcq, -0.05, 0.05);
    slot->dkv_kr = RandomBf16(static_cast<uint64_t>(he) + 1, he, kHckv + kDr, -0.05, 0.05);
  }
  return *slot;
}
const UpWeights& UpWeightsFor(int64_t n) {
  static std::map<int64_t, std::unique_ptr<UpWeights>> cache;
  auto& slot = cache[n];
  if (!slot) {
    slot = std::make_unique<UpWeights>();
    slot->uq_qr = RandomBf16(static_cast<uint64_t>(n) + 2, kHcq, n * (kD + kDr), -0.05, 0.05);
    slot->uk = RandomBf16(static_cast<uint64_t>(n) + 3, n * kD, kHckv, -0.1, 0.1);
  }
  return *slot;
}

// The INT8 weights of the quantised scenarios, per He (down) and per N (weightUqQr).
struct Int8DownWeights {
  Int8Matrix dq, dkv_kr;
};
const Int8DownWeights& Int8DownWeightsFor(int64_t he) {
  static std::map<int64_t, std::unique_ptr<Int8DownWeights>> cache;
  auto& slot = cache[he];
  if (!slot) {
    slot = std::make_unique<Int8DownWeights>();
    slot->dq = RandomInt8(static_cast<uint64_t>(he) + 4, he, kHcq);
    slot->dkv_kr = RandomInt8(static_cast<uint64_t>(he) + 5, he, kHckv + kDr);
  }
  return *slot;
}
const Int8Matrix& Int8UqQrFor(int64_t n) {
  static std::map<int64_t, std::unique_ptr<Int8Matrix>> cache;
  auto& slot = cache[n];
  if (!slot) slot = std::make_unique<Int8Matrix>(RandomInt8(static_cast<uint64_t>(n) + 6, kHcq, n * (kD + kDr)));
  return *slot;
}

double RoundBf16(double v) { return Bf16ToDouble(DoubleToBf16(v)); }

// rows [T, K] @ w [K, N] in float64 (rows given as doubles), and the sums of |terms|.
template <typename Matrix>
void Product(const std::vector<double>& a, int64_t t, int64_t k, const Matrix& w, std::vector<double>& out,
             std::vector<double>& magnitude) {
  out.assign(static_cast<size_t>(t * w.cols), 0.0);
  magnitude.assign(out.size(), 0.0);
  for (int64_t r = 0; r < t; ++r) {
    for (int64_t i = 0; i < k; ++i) {
      const double x = a[static_cast<size_t>(r * k + i)];
      double* o = out.data() + r * w.cols;
      double* m = magnitude.data() + r * w.cols;
      for (int64_t j = 0; j < w.cols; ++j) {
        const double term = x * w.At(i * w.cols + j);
        o[j] += term;
        m[j] += std::abs(term);
      }
    }
  }
}

// RmsNorm of `length` values times gamma, rounded to bf16 (or not).
// V3's factor (qcQrScale, kcScale) multiplies the result before the rounding.
void RmsRow(const double* x, const std::vector<double>& gamma, double eps, double* y, bool round_bf16 = true,
            double factor = 1.0) {
  const auto length = static_cast<int64_t>(gamma.size());
  double sum = 0;
  for (int64_t i = 0; i < length; ++i) sum += x[i] * x[i];
  const double rstd = 1.0 / std::sqrt(sum / static_cast<double>(length) + eps);
  for (int64_t i = 0; i < length; ++i) {
    const double v = x[i] * rstd * gamma[static_cast<size_t>(i)] * factor;
    y[i] = round_bf16 ? RoundBf16(v) : v;
  }
}

// The kernel's RoPE of Dr values: even elements then odd, rotated as halves.
void RopeRow(const double* x, const double* c, const double* s, double* y, double* magnitude) {
  const int64_t h = kDr / 2;
  for (int64_t i = 0; i < h; ++i) {
    y[i] = x[2 * i] * c[i] - x[2 * i + 1] * s[i];
    y[i + h] = x[2 * i + 1] * c[i + h] + x[2 * i] * s[i + h];
    magnitude[i] = std::abs(x[2 * i] * c[i]) + std::abs(x[2 * i + 1] * s[i]);
    magnitude[i + h] = std::abs(x[2 * i + 1] * c[i + h]) + std::abs(x[2 * i] * s[i + h]);
  }
}

// Within a bf16 rounding of the value and of upstream bf16 roundings (relative to the terms' size).
Expected Bf16Near(const std::vector<double>& want, const std::vector<double>& magnitude, double upstream) {
  Expected e;
  for (size_t i = 0; i < want.size(); ++i) {
    e.values.emplace_back(RoundBf16(want[i]));
    e.tolerance.push_back(2 * kBf16Ulp * std::abs(want[i]) + upstream * magnitude[i] + 1e-6);
  }
  return e;
}

enum class Op { kV1, kV2, kV3 };

struct MlaCase {
  std::string name;
  Op op = Op::kV1;
  int64_t he = 7168, n = 2, b = 2, s = 3;
  bool fused = false;  // tokenX [T, He]
  int64_t block_num = 2, block_size = 16;
  bool nz_cache = false, nz_weights = false, skip_slot = false;
  View x_view = View::kContiguous, out_view = View::kContiguous, cache_view = View::kContiguous,
       table_view = View::kContiguous;
  double qc_scale = 1, kc_scale = 1;  // V3's qcQrScale and kcScale
};
void PrintTo(const MlaCase& c, std::ostream* os) { *os << c.name; }

// One call's tensors.
struct MlaTensors {
  std::unique_ptr<DeviceTensor> x, dq, uq_qr, uk, dkv_kr, gamma_cq, gamma_ckv, sin, cos, index, kv, kr, query,
      query_rope, q_nope_scale;
  // The quantised scenarios' scales (null: not passed).
  std::unique_ptr<DeviceTensor> scale_x, scale_w_dq, scale_w_uq_qr, scale_w_dkv_kr, scale_ckv, scale_ckr, smooth_cq;
  // V3's extra tensors (not read or written on A2).
  std::unique_ptr<DeviceTensor> actual_seq_len, query_norm, q_norm_scale;
  bool nz_weights = false;
  const char* cache_mode = "PA_BSND";
  double qc_scale = 1, kc_scale = 1;
};

OpRun Call(const MlaTensors& m, Op op) {
  const aclFormat wf = m.nz_weights ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND;
  const auto opt = [](OpArgs& a, const std::unique_ptr<DeviceTensor>& t) { return t ? a.Tensor(*t) : nullptr; };
  if (op == Op::kV1) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnMlaPrologGetWorkspaceSize(
              a.Tensor(*m.x), a.Tensor(*m.dq, wf), a.Tensor(*m.uq_qr, wf), a.Tensor(*m.uk), a.Tensor(*m.dkv_kr, wf),
              a.Tensor(*m.gamma_cq), a.Tensor(*m.gamma_ckv), a.Tensor(*m.sin), a.Tensor(*m.cos), a.Tensor(*m.index),
              a.Tensor(*m.kv), a.Tensor(*m.kr), opt(a, m.scale_x), opt(a, m.scale_w_dq), opt(a, m.scale_w_uq_qr),
              opt(a, m.scale_w_dkv_kr), opt(a, m.scale_ckv), opt(a, m.scale_ckr), opt(a, m.smooth_cq), 1e-5, 1e-6,
              m.cache_mode, a.Tensor(*m.query), a.Tensor(*m.query_rope), w, e);
        },
        aclnnMlaProlog);
  }
  if (op == Op::kV3) {
    // The attributes A2 does not read get values other than their defaults.
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnMlaPrologV3WeightNzGetWorkspaceSize(
              a.Tensor(*m.x), a.Tensor(*m.dq, wf), a.Tensor(*m.uq_qr, wf), a.Tensor(*m.uk), a.Tensor(*m.dkv_kr, wf),
              a.Tensor(*m.gamma_cq), a.Tensor(*m.gamma_ckv), a.Tensor(*m.sin), a.Tensor(*m.cos), a.Tensor(*m.kv),
              a.Tensor(*m.kr), opt(a, m.index), opt(a, m.scale_x), opt(a, m.scale_w_dq), opt(a, m.scale_w_uq_qr),
              opt(a, m.scale_w_dkv_kr), opt(a, m.scale_ckv), opt(a, m.scale_ckr), opt(a, m.smooth_cq),
              opt(a, m.actual_seq_len), 1e-5, 1e-6, m.cache_mode, true, 1, 2, 1, 1, 1, 64, 0.5, m.qc_scale, m.kc_scale,
              a.Tensor(*m.query), a.Tensor(*m.query_rope), opt(a, m.q_nope_scale), opt(a, m.query_norm),
              opt(a, m.q_norm_scale), w, e);
        },
        aclnnMlaPrologV3WeightNz);
  }
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMlaPrologV2WeightNzGetWorkspaceSize(
            a.Tensor(*m.x), a.Tensor(*m.dq, wf), a.Tensor(*m.uq_qr, wf), a.Tensor(*m.uk), a.Tensor(*m.dkv_kr, wf),
            a.Tensor(*m.gamma_cq), a.Tensor(*m.gamma_ckv), a.Tensor(*m.sin), a.Tensor(*m.cos), a.Tensor(*m.index),
            a.Tensor(*m.kv), a.Tensor(*m.kr), opt(a, m.scale_x), opt(a, m.scale_w_dq), opt(a, m.scale_w_uq_qr),
            opt(a, m.scale_w_dkv_kr), opt(a, m.scale_ckv), opt(a, m.scale_ckr), opt(a, m.smooth_cq), 1e-5, 1e-6,
            m.cache_mode, a.Tensor(*m.query), a.Tensor(*m.query_rope), opt(a, m.q_nope_scale), w, e);
      },
      aclnnMlaPrologV2WeightNz);
}

std::unique_ptr<DeviceTensor> WeightTensor(const Bf16Matrix& w, bool nz) {
  if (!nz) {
    auto t = std::make_unique<DeviceTensor>(ACL_BF16, Shape{w.rows, w.cols});
    t->UploadBytes(w.bytes);
    return t;
  }
  auto t = std::make_unique<DeviceTensor>(ACL_BF16, Shape{w.cols / kFrac, w.rows / kFrac, kFrac, kFrac});
  t->UploadBytes(NzBytes(w.bytes, w.rows, w.cols, 2));
  return t;
}

std::unique_ptr<DeviceTensor> WeightTensor(const Int8Matrix& w, bool nz) {
  constexpr int64_t kC0 = 32;
  auto t = nz ? std::make_unique<DeviceTensor>(ACL_INT8, Shape{w.cols / kC0, w.rows / kFrac, kFrac, kC0})
              : std::make_unique<DeviceTensor>(ACL_INT8, Shape{w.rows, w.cols});
  t->UploadBytes(nz ? NzBytes(w.bytes, w.rows, w.cols, 1) : w.bytes);
  return t;
}

// The tensors of a case with fresh random data; `slots` gets the token slots written to cacheIndex.
MlaTensors MakeTensors(const MlaCase& c, Rng& rng, std::vector<int64_t>& slots) {
  const DownWeights& down = DownWeightsFor(c.he);
  const UpWeights& up = UpWeightsFor(c.n);
  const int64_t t = c.b * c.s;
  const Shape tokens = c.fused ? Shape{t} : Shape{c.b, c.s};
  const auto with = [&tokens](std::initializer_list<int64_t> tail) {
    Shape shape = tokens;
    shape.insert(shape.end(), tail);
    return shape;
  };
  MlaTensors m;
  m.nz_weights = c.nz_weights;
  m.cache_mode = c.nz_cache ? "PA_NZ" : "PA_BSND";
  m.x = std::make_unique<DeviceTensor>(ACL_BF16, with({c.he}), c.x_view);
  m.x->FillRandom(rng, Range{-1, 1});
  m.dq = WeightTensor(down.dq, c.nz_weights);
  m.uq_qr = WeightTensor(up.uq_qr, c.nz_weights);
  m.uk = std::make_unique<DeviceTensor>(ACL_BF16, Shape{c.n, kD, kHckv});
  m.uk->UploadBytes(up.uk.bytes);
  m.dkv_kr = WeightTensor(down.dkv_kr, c.nz_weights);
  m.gamma_cq = std::make_unique<DeviceTensor>(ACL_BF16, Shape{kHcq});
  m.gamma_cq->FillRandom(rng, Range{0.5, 1.5});
  m.gamma_ckv = std::make_unique<DeviceTensor>(ACL_BF16, Shape{kHckv});
  m.gamma_ckv->FillRandom(rng, Range{0.5, 1.5});
  m.sin = std::make_unique<DeviceTensor>(ACL_BF16, with({kDr}), c.table_view);
  m.sin->FillRandom(rng, Range{-1, 1});
  m.cos = std::make_unique<DeviceTensor>(ACL_BF16, with({kDr}));
  m.cos->FillRandom(rng, Range{-1, 1});
  // Distinct slots drawn from the whole cache; one skipped (-1) where asked.
  const int64_t capacity = c.block_num * c.block_size;
  std::vector<int64_t> pool(static_cast<size_t>(capacity));
  for (int64_t i = 0; i < capacity; ++i) pool[static_cast<size_t>(i)] = i;
  for (size_t i = pool.size(); i > 1; --i) {
    const auto j = static_cast<size_t>(std::min<double>(rng.Uniform(0, static_cast<double>(i)), double(i - 1)));
    std::swap(pool[i - 1], pool[j]);
  }
  slots.assign(pool.begin(), pool.begin() + std::min<int64_t>(t, capacity));
  while (static_cast<int64_t>(slots.size()) < t) slots.push_back(static_cast<int64_t>(slots.size()));  // no cache
  if (c.skip_slot && t > 1) slots[1] = -1;
  m.index = std::make_unique<DeviceTensor>(ACL_INT64, tokens);
  Values index_values;
  for (const int64_t slot : slots) index_values.emplace_back(static_cast<double>(slot));
  if (t > 0) m.index->WriteView(index_values);
  m.kv = std::make_unique<DeviceTensor>(ACL_BF16, Shape{c.block_num, c.block_size, 1, kHckv}, c.cache_view);
  m.kv->FillRandom(rng, Range{-3, 3});
  m.kr = std::make_unique<DeviceTensor>(ACL_BF16, Shape{c.block_num, c.block_size, 1, kDr}, c.cache_view);
  m.kr->FillRandom(rng, Range{-3, 3});
  m.query = std::make_unique<DeviceTensor>(ACL_BF16, with({c.n, kHckv}), c.out_view);
  m.query->Poison();
  m.query_rope = std::make_unique<DeviceTensor>(ACL_BF16, with({c.n, kDr}), c.out_view);
  m.query_rope->Poison();
  if (c.op != Op::kV1) m.q_nope_scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{1});
  m.qc_scale = c.qc_scale;
  m.kc_scale = c.kc_scale;
  if (c.op == Op::kV3) {
    m.actual_seq_len = std::make_unique<DeviceTensor>(ACL_INT32, Shape{std::max<int64_t>(c.b, 1)});
    m.actual_seq_len->FillRandom(rng, Range{1, 16});
    m.query_norm = std::make_unique<DeviceTensor>(ACL_BF16, Shape{t, kHcq});
    m.query_norm->FillRandom(rng, Range{-1, 1});
    m.q_norm_scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{t, 1});
    m.q_norm_scale->FillRandom(rng, Range{-1, 1});
  }
  return m;
}

// The element offset of cache row `slot`, column `h` (width H) in either layout (PA_NZ: fractals of
// c0 columns, 16 for bf16, 32 for INT8).
int64_t CacheOffset(int64_t slot, int64_t h, int64_t width, int64_t block_size, bool nz, int64_t c0 = kFrac) {
  if (!nz) return slot * width + h;
  return (slot / block_size) * block_size * width + (h / c0) * block_size * c0 + (slot % block_size) * c0 + h % c0;
}

class MlaPrologTest : public ::testing::TestWithParam<MlaCase> {};

TEST_P(MlaPrologTest, MatchesFloat64Reference) {
  const MlaCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  std::vector<int64_t> slots;
  const MlaTensors m = MakeTensors(c, rng, slots);
  const DownWeights& down = DownWeightsFor(c.he);
  const UpWeights& up = UpWeightsFor(c.n);
  const Values kv_before = m.kv->ReadView(), kr_before = m.kr->ReadView();
  const std::vector<uint8_t> kv_bytes = m.kv->DownloadBytes(), kr_bytes = m.kr->DownloadBytes();
  const std::vector<uint8_t> query_bytes = m.query->DownloadBytes();
  const std::vector<uint8_t> query_norm_bytes = m.query_norm ? m.query_norm->DownloadBytes() : std::vector<uint8_t>{};
  const OpRun run = Call(m, c.op);
  ASSERT_TRUE(run.ok()) << Describe(run);
  if (m.query_norm) {
    EXPECT_EQ(m.query_norm->DownloadBytes(), query_norm_bytes) << "queryNormOutOptional is not written";
  }

  const int64_t t = c.b * c.s, n = c.n, width = kD + kDr;
  const std::vector<double> x = Reals(m.x->ReadView()), sin = Reals(m.sin->ReadView()), cos = Reals(m.cos->ReadView()),
                            gamma_cq = Reals(m.gamma_cq->ReadView()), gamma_ckv = Reals(m.gamma_ckv->ReadView());
  // The down projections, the query's norm and up projection, each rounded to bf16 as the kernel does.
  std::vector<double> cq, ckv_kr, qc_qr, magnitude;
  Product(x, t, c.he, down.dq, cq, magnitude);
  for (double& v : cq) v = RoundBf16(v);
  Product(x, t, c.he, down.dkv_kr, ckv_kr, magnitude);
  for (double& v : ckv_kr) v = RoundBf16(v);
  std::vector<double> cq_norm(cq.size());
  for (int64_t r = 0; r < t; ++r) RmsRow(&cq[r * kHcq], gamma_cq, 1e-5, &cq_norm[r * kHcq], true, c.qc_scale);
  Product(cq_norm, t, kHcq, up.uq_qr, qc_qr, magnitude);
  for (double& v : qc_qr) v = RoundBf16(v);

  std::vector<double> query, query_mag, rope, rope_mag;
  for (int64_t r = 0; r < t; ++r) {
    for (int64_t h = 0; h < n; ++h) {
      const double* qc = &qc_qr[(r * n + h) * width];
      for (int64_t j = 0; j < kHckv; ++j) {
        double sum = 0, mag = 0;
        for (int64_t i = 0; i < kD; ++i) {
          const double term = qc[i] * up.uk.At((h * kD + i) * kHckv + j);
          sum += term;
          mag += std::abs(term);
        }
        query.push_back(sum);
        query_mag.push_back(mag);
      }
      double y[kDr], mag[kDr];
      RopeRow(qc + kD, &cos[r * kDr], &sin[r * kDr], y, mag);
      rope.insert(rope.end(), y, y + kDr);
      rope_mag.insert(rope_mag.end(), mag, mag + kDr);
    }
  }
  ExpectNear(m.query->ReadView(), Bf16Near(query, query_mag, 4 * kBf16Ulp), "queryOut");
  ExpectNear(m.query_rope->ReadView(), Bf16Near(rope, rope_mag, 2 * kBf16Ulp), "queryRopeOut");
  ExpectOutsideViewUnchanged(*m.query, query_bytes, "queryOut");

  // The caches: each written slot holds its token's rows, every other element keeps its value.
  Values kv_want = kv_before, kr_want = kr_before;
  std::vector<double> kv_tol(kv_want.size(), 0.0), kr_tol(kr_want.size(), 0.0);
  for (int64_t r = 0; r < t; ++r) {
    const int64_t slot = slots[static_cast<size_t>(r)];
    if (slot < 0 || c.block_num == 0) continue;
    double row[kHckv], y[kDr], mag[kDr], kr_raw[kDr];
    RmsRow(&ckv_kr[r * (kHckv + kDr)], gamma_ckv, 1e-6, row, true, c.kc_scale);
    for (int64_t j = 0; j < kDr; ++j) kr_raw[j] = ckv_kr[static_cast<size_t>(r * (kHckv + kDr) + kHckv + j)];
    RopeRow(kr_raw, &cos[r * kDr], &sin[r * kDr], y, mag);
    for (int64_t j = 0; j < kHckv; ++j) {
      const auto at = static_cast<size_t>(CacheOffset(slot, j, kHckv, c.block_size, c.nz_cache));
      kv_want[at] = row[j];
      kv_tol[at] = 3 * kBf16Ulp * std::abs(row[j]) + 1e-6;
    }
    for (int64_t j = 0; j < kDr; ++j) {
      const auto at = static_cast<size_t>(CacheOffset(slot, j, kDr, c.block_size, c.nz_cache));
      kr_want[at] = RoundBf16(y[j]);
      kr_tol[at] = 2 * kBf16Ulp * std::abs(y[j]) + 2 * kBf16Ulp * mag[j] + 1e-6;
    }
  }
  ExpectNear(m.kv->ReadView(), Expected{kv_want, kv_tol}, "kvCacheRef");
  ExpectNear(m.kr->ReadView(), Expected{kr_want, kr_tol}, "krCacheRef");
  ExpectOutsideViewUnchanged(*m.kv, kv_bytes, "kvCacheRef");
  ExpectOutsideViewUnchanged(*m.kr, kr_bytes, "krCacheRef");
}

std::vector<MlaCase> Cases() {
  return {
      {.name = "bsnd_batch2_seq3"},
      {.name = "nz_cache_nz_weights_fused",
       .n = 4,
       .b = 5,
       .s = 1,
       .fused = true,
       .nz_cache = true,
       .nz_weights = true,
       .skip_slot = true},
      {.name = "he7680_block128_decode", .he = 7680, .n = 1, .b = 3, .s = 1, .block_num = 1, .block_size = 128},
      {.name = "he6144_views",
       .he = 6144,
       .b = 2,
       .s = 2,
       .x_view = View::kStepped,
       .out_view = View::kStepped,
       .cache_view = View::kStepped,
       .table_view = View::kStepped},
      {.name = "nz_cache_offset_views",
       .b = 1,
       .s = 4,
       .nz_cache = true,
       .skip_slot = true,
       .out_view = View::kOffset,
       .cache_view = View::kOffset},
      {.name = "v2_bsnd", .op = Op::kV2, .nz_weights = true},
      {.name = "v2_nz_cache_fused", .op = Op::kV2, .n = 8, .b = 4, .s = 1, .fused = true, .nz_cache = true},
      {.name = "empty_cache", .block_num = 0, .block_size = 16},
      {.name = "v2_empty_cache", .op = Op::kV2, .b = 1, .s = 2, .block_num = 0, .block_size = 128},
      {.name = "v3_scales_nz_weights", .op = Op::kV3, .n = 4, .nz_weights = true, .qc_scale = 0.5, .kc_scale = 2},
      {.name = "v3_nz_cache_fused",
       .op = Op::kV3,
       .b = 3,
       .s = 1,
       .fused = true,
       .nz_cache = true,
       .skip_slot = true,
       .qc_scale = 1.25},
  };
}
INSTANTIATE_TEST_SUITE_P(Cases, MlaPrologTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<MlaCase>& info) { return info.param.name; });

// ---- The quantised scenarios, against a float64 reference of the kernel's stages: cQ and
// [cKV | kR] (bf16 products, or INT32 products of INT8 tokenX and weights times dequantScaleX per
// token and the weight's scale per column), RmsNorm(cQ) times smoothScalesCq quantised per token
// (scale max / 127, half to even), [qC | qR] = its INT32 product with weightUqQr times that scale and
// dequantScaleWUqQr, qC rounded to bf16 before weightUk, qR rotated unrounded; INT8 caches hold
// RmsNorm(cKV) times quantScaleCkv (per channel; full: its first value) and bf16(RoPE(kR)) times
// quantScaleCkr, rounded half to even and saturated; with INT8 tokenX and caches, queryOut is qN
// quantised per token and head (dequantScaleQNopeOut) and queryRopeOut is scaled by
// quantScaleCkv / that scale. The reference's float64 may take an INT8 rounding of cQ the other way
// than the kernel's f32 (a few per token, each moving [qC | qR] by one weight times its scales), and
// quantised outputs by one.

enum class Quant { kPartial, kPartialKv, kFull, kFullKv };

struct QuantCase {
  MlaCase base;
  Quant quant = Quant::kPartial;
  bool smooth = true;
};
void PrintTo(const QuantCase& c, std::ostream* os) { *os << c.base.name; }

bool IsFull(Quant q) { return q == Quant::kFull || q == Quant::kFullKv; }
bool IsKvQuant(Quant q) { return q == Quant::kPartialKv || q == Quant::kFullKv; }

std::unique_ptr<DeviceTensor> RandomTensor(aclDataType dtype, const Shape& shape, Rng& rng, Range range,
                                           View view = View::kContiguous) {
  auto t = std::make_unique<DeviceTensor>(dtype, shape, view);
  t->FillRandom(rng, range);
  return t;
}

MlaTensors MakeQuantTensors(const QuantCase& q, Rng& rng, std::vector<int64_t>& slots) {
  const MlaCase& c = q.base;
  MlaTensors m = MakeTensors(c, rng, slots);
  const int64_t t = c.b * c.s;
  const Range weight_scale{2e-4, 6e-4}, cache_scale{10, 30};
  if (IsFull(q.quant)) {
    const Int8DownWeights& down = Int8DownWeightsFor(c.he);
    m.x = RandomTensor(ACL_INT8, m.x->shape(), rng, Range{-100, 100}, c.x_view);
    m.scale_x = RandomTensor(ACL_FLOAT, {t, 1}, rng, Range{0.004, 0.012});
    m.dq = WeightTensor(down.dq, c.nz_weights);
    m.scale_w_dq = RandomTensor(ACL_FLOAT, {1, kHcq}, rng, weight_scale);
    m.dkv_kr = WeightTensor(down.dkv_kr, c.nz_weights);
    m.scale_w_dkv_kr = RandomTensor(ACL_FLOAT, {1, kHckv + kDr}, rng, weight_scale);
  }
  m.uq_qr = WeightTensor(Int8UqQrFor(c.n), c.nz_weights);
  m.scale_w_uq_qr = RandomTensor(ACL_FLOAT, {1, c.n * (kD + kDr)}, rng, weight_scale);
  if (q.smooth) m.smooth_cq = RandomTensor(ACL_FLOAT, {1, kHcq}, rng, Range{0.5, 1.5});
  if (IsKvQuant(q.quant)) {
    m.kv = RandomTensor(ACL_INT8, m.kv->shape(), rng, Range{-100, 100}, c.cache_view);
    m.scale_ckv = RandomTensor(ACL_FLOAT, {1, kHckv}, rng, cache_scale);
  }
  if (q.quant == Quant::kPartialKv) {
    m.kr = RandomTensor(ACL_INT8, m.kr->shape(), rng, Range{-100, 100}, c.cache_view);
    m.scale_ckr = RandomTensor(ACL_FLOAT, {1, kDr}, rng, cache_scale);
  }
  if (q.quant == Quant::kFullKv) {
    m.query = std::make_unique<DeviceTensor>(ACL_INT8, m.query->shape(), c.out_view);
    m.query->Poison();
    m.q_nope_scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{t, c.n, 1});
    m.q_nope_scale->Poison();
  }
  return m;
}

// Values with an absolute tolerance each.
struct Approx {
  std::vector<double> v, tol;
};

// RoPE's tolerance from its input's: each output reads two inputs, times cos and sin.
void RopeTolerance(const double* tol_x, const double* c, const double* s, double* tol_y) {
  const int64_t h = kDr / 2;
  for (int64_t i = 0; i < h; ++i) {
    tol_y[i] = std::abs(c[i]) * tol_x[2 * i] + std::abs(s[i]) * tol_x[2 * i + 1];
    tol_y[i + h] = std::abs(c[i + h]) * tol_x[2 * i + 1] + std::abs(s[i + h]) * tol_x[2 * i];
  }
}

double QuantiseInt8(double v) { return std::clamp(std::nearbyint(v), -128.0, 127.0); }

constexpr double kFlips = 4;  // INT8 roundings of a token's cQ that f32 may take the other way

class MlaPrologQuantTest : public ::testing::TestWithParam<QuantCase> {};

TEST_P(MlaPrologQuantTest, MatchesStagedReference) {
  const QuantCase& q = GetParam();
  const MlaCase& c = q.base;
  Rng rng = Rng::ForCurrentTest();
  std::vector<int64_t> slots;
  const MlaTensors m = MakeQuantTensors(q, rng, slots);
  const Values kv_before = m.kv->ReadView(), kr_before = m.kr->ReadView();
  const std::vector<uint8_t> kv_bytes = m.kv->DownloadBytes(), kr_bytes = m.kr->DownloadBytes();
  const std::vector<uint8_t> query_bytes = m.query->DownloadBytes();
  const OpRun run = Call(m, c.op);
  ASSERT_TRUE(run.ok()) << Describe(run);

  const bool full = IsFull(q.quant), kv_quant = IsKvQuant(q.quant), quant_query = q.quant == Quant::kFullKv;
  const int64_t t = c.b * c.s, n = c.n, width = kD + kDr, h_ckv_kr = kHckv + kDr;
  const std::vector<double> x = Reals(m.x->ReadView()), sin = Reals(m.sin->ReadView()), cos = Reals(m.cos->ReadView()),
                            gamma_cq = Reals(m.gamma_cq->ReadView()), gamma_ckv = Reals(m.gamma_ckv->ReadView());
  const auto read = [](const std::unique_ptr<DeviceTensor>& d, size_t count, double fill) {
    return d ? Reals(d->ReadView()) : std::vector<double>(count, fill);
  };
  // cQ and [cKV | kR].
  std::vector<double> cq, ckv_kr, magnitude;
  if (full) {
    const Int8DownWeights& down = Int8DownWeightsFor(c.he);
    const std::vector<double> scale_x = read(m.scale_x, 0, 0), scale_dq = read(m.scale_w_dq, 0, 0),
                              scale_dkv = read(m.scale_w_dkv_kr, 0, 0);
    Product(x, t, c.he, down.dq, cq, magnitude);
    Product(x, t, c.he, down.dkv_kr, ckv_kr, magnitude);
    for (int64_t r = 0; r < t; ++r) {
      for (int64_t j = 0; j < kHcq; ++j) cq[r * kHcq + j] *= scale_x[r] * scale_dq[j];
      for (int64_t j = 0; j < h_ckv_kr; ++j) ckv_kr[r * h_ckv_kr + j] *= scale_x[r] * scale_dkv[j];
    }
  } else {
    const DownWeights& down = DownWeightsFor(c.he);
    Product(x, t, c.he, down.dq, cq, magnitude);
    for (double& v : cq) v = RoundBf16(v);
    Product(x, t, c.he, down.dkv_kr, ckv_kr, magnitude);
    for (double& v : ckv_kr) v = RoundBf16(v);
  }
  // RmsNorm(cQ) times the smooth scales, quantised per token.
  const std::vector<double> smooth = read(m.smooth_cq, kHcq, 1.0);
  std::vector<double> cq_int8(cq.size()), cq_scale(static_cast<size_t>(t));
  for (int64_t r = 0; r < t; ++r) {
    double* row = &cq_int8[r * kHcq];
    RmsRow(&cq[r * kHcq], gamma_cq, 1e-5, row, /*round_bf16=*/false, c.qc_scale);
    double max = 0;
    for (int64_t j = 0; j < kHcq; ++j) max = std::max(max, std::abs(row[j] *= smooth[j]));
    cq_scale[r] = max / 127;
    for (int64_t j = 0; j < kHcq; ++j) row[j] = QuantiseInt8(row[j] * 127 / max);
  }
  // [qC | qR], dequantised.
  const Int8Matrix& uq_qr = Int8UqQrFor(n);
  const std::vector<double> scale_uq = read(m.scale_w_uq_qr, 0, 0);
  Approx qc_qr;
  Product(cq_int8, t, kHcq, uq_qr, qc_qr.v, magnitude);
  std::vector<double> column_max(static_cast<size_t>(uq_qr.cols), 0.0);
  for (int64_t i = 0; i < uq_qr.rows * uq_qr.cols; ++i) {
    double& mx = column_max[static_cast<size_t>(i % uq_qr.cols)];
    mx = std::max(mx, std::abs(uq_qr.At(i)));
  }
  qc_qr.tol.resize(qc_qr.v.size());
  for (int64_t r = 0; r < t; ++r) {
    for (int64_t j = 0; j < uq_qr.cols; ++j) {
      const auto at = static_cast<size_t>(r * uq_qr.cols + j);
      const double unit = cq_scale[r] * scale_uq[j];
      qc_qr.v[at] *= unit;
      qc_qr.tol[at] = kFlips * column_max[j] * unit + 1e-5 * std::abs(qc_qr.v[at]);
    }
  }

  // qN = bf16(qC) @ weightUk per head, and RoPE(qR).
  const UpWeights& up = UpWeightsFor(n);
  Approx qn, rope;
  for (int64_t r = 0; r < t; ++r) {
    for (int64_t h = 0; h < n; ++h) {
      const size_t base = static_cast<size_t>((r * n + h) * width);
      double qc[kD], qc_tol[kD];
      for (int64_t i = 0; i < kD; ++i) {
        qc[i] = RoundBf16(qc_qr.v[base + i]);
        qc_tol[i] = qc_qr.tol[base + i] + kBf16Ulp * std::abs(qc_qr.v[base + i]);
      }
      for (int64_t j = 0; j < kHckv; ++j) {
        double sum = 0, mag = 0, carried = 0;
        for (int64_t i = 0; i < kD; ++i) {
          const double w = up.uk.At((h * kD + i) * kHckv + j);
          sum += qc[i] * w;
          mag += std::abs(qc[i] * w);
          carried += std::abs(w) * qc_tol[i];
        }
        qn.v.push_back(RoundBf16(sum));
        qn.tol.push_back(2 * kBf16Ulp * (std::abs(sum) + mag) + carried + 1e-6);
      }
      double y[kDr], mag[kDr], tol[kDr];
      RopeRow(&qc_qr.v[base + kD], &cos[r * kDr], &sin[r * kDr], y, mag);
      RopeTolerance(&qc_qr.tol[base + kD], &cos[r * kDr], &sin[r * kDr], tol);
      for (int64_t i = 0; i < kDr; ++i) {
        rope.v.push_back(RoundBf16(y[i]));
        rope.tol.push_back(tol[i] + kBf16Ulp * std::abs(y[i]) + 1e-6 * mag[i] + 1e-6);
      }
    }
  }
  const std::vector<double> scale_ckv = read(m.scale_ckv, kHckv, 1.0), scale_ckr = read(m.scale_ckr, kDr, 1.0);
  if (quant_query) {
    // queryOut quantised per token and head; queryRopeOut times quantScaleCkv / that scale.
    Approx query, scale, query_rope;
    for (int64_t row = 0; row < t * n; ++row) {
      const auto base = static_cast<size_t>(row * kHckv);
      double max = 0, max_tol = 0;
      for (int64_t j = 0; j < kHckv; ++j) {
        max = std::max(max, std::abs(qn.v[base + j]));
        max_tol = std::max(max_tol, qn.tol[base + j]);
      }
      scale.v.push_back(max / 127);
      scale.tol.push_back(max_tol / 127 + 1e-6 * max);
      for (int64_t j = 0; j < kHckv; ++j) {
        query.v.push_back(std::clamp(std::round(qn.v[base + j] * 127 / max), -128.0, 127.0));
        query.tol.push_back(127 * (qn.tol[base + j] + max_tol) / max + 1);
      }
      const double factor = scale_ckv[0] / (max / 127);
      for (int64_t j = 0; j < kDr; ++j) {
        const auto at = static_cast<size_t>(row * kDr + j);
        const double v = RoundBf16(rope.v[at] * factor);
        query_rope.v.push_back(v);
        query_rope.tol.push_back(std::abs(v) * (max_tol / max + 2 * kBf16Ulp) + factor * rope.tol[at] + 1e-6);
      }
    }
    ExpectNear(m.query->ReadView(), Expected{Values(query.v.begin(), query.v.end()), query.tol}, "queryOut");
    ExpectNear(m.q_nope_scale->ReadView(), Expected{Values(scale.v.begin(), scale.v.end()), scale.tol},
               "dequantScaleQNopeOut");
    ExpectNear(m.query_rope->ReadView(), Expected{Values(query_rope.v.begin(), query_rope.v.end()), query_rope.tol},
               "queryRopeOut");
  } else {
    ExpectNear(m.query->ReadView(), Expected{Values(qn.v.begin(), qn.v.end()), qn.tol}, "queryOut");
    ExpectNear(m.query_rope->ReadView(), Expected{Values(rope.v.begin(), rope.v.end()), rope.tol}, "queryRopeOut");
  }
  ExpectOutsideViewUnchanged(*m.query, query_bytes, "queryOut");

  // The caches: each written slot holds its token's rows, every other element keeps its value.
  Values kv_want = kv_before, kr_want = kr_before;
  std::vector<double> kv_tol(kv_want.size(), 0.0), kr_tol(kr_want.size(), 0.0);
  const int64_t kv_c0 = kv_quant ? 32 : kFrac, kr_c0 = q.quant == Quant::kPartialKv ? 32 : kFrac;
  for (int64_t r = 0; r < t; ++r) {
    const int64_t slot = slots[static_cast<size_t>(r)];
    if (slot < 0 || c.block_num == 0) continue;
    double row[kHckv], y[kDr], mag[kDr];
    RmsRow(&ckv_kr[r * h_ckv_kr], gamma_ckv, 1e-6, row, /*round_bf16=*/!kv_quant, c.kc_scale);
    RopeRow(&ckv_kr[r * h_ckv_kr + kHckv], &cos[r * kDr], &sin[r * kDr], y, mag);
    for (int64_t j = 0; j < kHckv; ++j) {
      const auto at = static_cast<size_t>(CacheOffset(slot, j, kHckv, c.block_size, c.nz_cache, kv_c0));
      if (kv_quant) {
        kv_want[at] = QuantiseInt8(row[j] * scale_ckv[full ? 0 : j]);
        kv_tol[at] = 1;
      } else {
        kv_want[at] = row[j];
        kv_tol[at] = 3 * kBf16Ulp * std::abs(row[j]) + 1e-6;
      }
    }
    for (int64_t j = 0; j < kDr; ++j) {
      const auto at = static_cast<size_t>(CacheOffset(slot, j, kDr, c.block_size, c.nz_cache, kr_c0));
      if (q.quant == Quant::kPartialKv) {
        kr_want[at] = QuantiseInt8(RoundBf16(y[j]) * scale_ckr[j]);
        kr_tol[at] = 1;
      } else {
        kr_want[at] = RoundBf16(y[j]);
        kr_tol[at] = 2 * kBf16Ulp * std::abs(y[j]) + 2 * kBf16Ulp * mag[j] + 1e-6;
      }
    }
  }
  ExpectNear(m.kv->ReadView(), Expected{kv_want, kv_tol}, "kvCacheRef");
  ExpectNear(m.kr->ReadView(), Expected{kr_want, kr_tol}, "krCacheRef");
  ExpectOutsideViewUnchanged(*m.kv, kv_bytes, "kvCacheRef");
  ExpectOutsideViewUnchanged(*m.kr, kr_bytes, "krCacheRef");
}

std::vector<QuantCase> QuantCases() {
  return {
      {.base = {.name = "v2_partial", .op = Op::kV2}},
      {.base = {.name = "v2_partial_no_smooth_nz",
                .op = Op::kV2,
                .n = 4,
                .b = 3,
                .s = 1,
                .fused = true,
                .nz_cache = true,
                .nz_weights = true,
                .skip_slot = true},
       .smooth = false},
      {.base = {.name = "v2_partial_kv", .op = Op::kV2, .n = 8, .b = 2, .s = 1}, .quant = Quant::kPartialKv},
      {.base = {.name = "v2_partial_kv_nz_cache_views",
                .op = Op::kV2,
                .b = 1,
                .s = 3,
                .nz_cache = true,
                .skip_slot = true,
                .x_view = View::kStepped,
                .out_view = View::kStepped,
                .cache_view = View::kOffset},
       .quant = Quant::kPartialKv},
      {.base = {.name = "v2_full_nz_weights", .op = Op::kV2, .b = 3, .s = 1, .fused = true, .nz_weights = true},
       .quant = Quant::kFull},
      {.base = {.name = "v2_full_kv", .op = Op::kV2, .he = 7680, .block_num = 1, .block_size = 128},
       .quant = Quant::kFullKv},
      {.base = {.name = "v2_full_kv_nz_cache_views",
                .op = Op::kV2,
                .n = 4,
                .b = 2,
                .s = 1,
                .nz_cache = true,
                .nz_weights = true,
                .skip_slot = true,
                .x_view = View::kStepped,
                .out_view = View::kStepped,
                .cache_view = View::kStepped},
       .quant = Quant::kFullKv,
       .smooth = false},
      {.base = {.name = "v1_partial", .he = 6144}},
      {.base = {.name = "v1_partial_kv_nz", .nz_cache = true, .nz_weights = true}, .quant = Quant::kPartialKv},
      {.base = {.name = "v1_full", .b = 1, .s = 2}, .quant = Quant::kFull},
      {.base = {.name = "v2_partial_kv_empty_cache", .op = Op::kV2, .b = 1, .s = 2, .block_num = 0},
       .quant = Quant::kPartialKv},
      {.base = {.name = "v3_partial_kv_scales", .op = Op::kV3, .b = 2, .s = 1, .qc_scale = 1.25, .kc_scale = 0.5},
       .quant = Quant::kPartialKv},
      {.base = {.name = "v3_full_kv_scales",
                .op = Op::kV3,
                .n = 4,
                .b = 1,
                .s = 2,
                .nz_cache = true,
                .nz_weights = true,
                .qc_scale = 0.75,
                .kc_scale = 1.5},
       .quant = Quant::kFullKv},
      {.base = {.name = "v3_full", .op = Op::kV3, .b = 2, .s = 1, .fused = true, .kc_scale = 3}, .quant = Quant::kFull},
  };
}
INSTANTIATE_TEST_SUITE_P(Cases, MlaPrologQuantTest, ::testing::ValuesIn(QuantCases()),
                         [](const ::testing::TestParamInfo<QuantCase>& info) { return info.param.base.name; });

// No token in a quantised scenario: phase 1 passes, nothing is written.
TEST(MlaPrologQuant, EmptyTokens) {
  for (const Quant quant : {Quant::kPartial, Quant::kPartialKv, Quant::kFull, Quant::kFullKv}) {
    SCOPED_TRACE(static_cast<int>(quant));
    Rng rng = Rng::ForCurrentTest();
    std::vector<int64_t> slots;
    const MlaTensors m =
        MakeQuantTensors({.base = {.name = "empty", .op = Op::kV2, .b = 0, .s = 1}, .quant = quant}, rng, slots);
    const std::vector<uint8_t> kv = m.kv->DownloadBytes(), kr = m.kr->DownloadBytes();
    const OpRun run = Call(m, Op::kV2);
    EXPECT_TRUE(run.ok()) << Describe(run);
    EXPECT_EQ(run.workspaceSize, 0U);
    EXPECT_EQ(m.kv->DownloadBytes(), kv);
    EXPECT_EQ(m.kr->DownloadBytes(), kr);
  }
}

// A slot past the cache fails a quantised run too, before either cache is written.
TEST(MlaPrologQuant, SlotsOutsideTheCacheFailTheRun) {
  for (const Quant quant : {Quant::kPartialKv, Quant::kFullKv}) {
    SCOPED_TRACE(static_cast<int>(quant));
    Rng rng = Rng::ForCurrentTest();
    std::vector<int64_t> slots;
    const MlaTensors m = MakeQuantTensors(
        {.base = {.name = "outside", .op = Op::kV2, .b = 2, .s = 1, .nz_cache = true}, .quant = quant}, rng, slots);
    m.index->WriteView({Value(40.0), Value(1.0)});
    const std::vector<uint8_t> kv = m.kv->DownloadBytes(), kr = m.kr->DownloadBytes();
    const OpRun run = Call(m, Op::kV2);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_EQ(m.kv->DownloadBytes(), kv);
    EXPECT_EQ(m.kr->DownloadBytes(), kr);
  }
}

// The quantised scenarios' rejections: dtype combinations outside the op definitions' columns are
// 161002; a scale missing, present where the scenario has none, or of the wrong shape is the
// tiling's 561002; MlaProlog has no dequantScaleQNope output for INT8 tokenX with INT8 caches.
TEST(MlaPrologQuant, Rejections) {
  using Field = std::unique_ptr<DeviceTensor> MlaTensors::*;
  // The scenario's tensors with `field` replaced by a fresh one of `dtype` and `shape` (undefined: null).
  struct Bad {
    Op op;
    Quant quant;
    Field field;
    aclDataType dtype;
    Shape shape;
    aclnnStatus status;
    std::vector<std::string> keywords;
  };
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const aclDataType kNull = ACL_DT_UNDEFINED, kF32 = ACL_FLOAT, kI8 = ACL_INT8, kBf16 = ACL_BF16;
  const auto v1 = Op::kV1, v2 = Op::kV2;
  const auto partial = Quant::kPartial, partial_kv = Quant::kPartialKv, full = Quant::kFull, full_kv = Quant::kFullKv;
  const Field sx = &MlaTensors::scale_x, sdq = &MlaTensors::scale_w_dq, suq = &MlaTensors::scale_w_uq_qr,
              sdkv = &MlaTensors::scale_w_dkv_kr, sckv = &MlaTensors::scale_ckv, sckr = &MlaTensors::scale_ckr,
              smooth = &MlaTensors::smooth_cq, qnope = &MlaTensors::q_nope_scale;
  const std::vector<Bad> cases = {
      {v2, partial, suq, kNull, {}, kTiling, {"dequantScaleWUqQrOptional", "required"}},
      {v2, partial, suq, ACL_FLOAT16, {1, 384}, kInvalid, {"dequantScaleWUqQrOptional"}},
      {v1, partial, suq, kF32, {1, 192}, kTiling, {"dequantScaleWUqQrOptional", "shape"}},
      {v2, partial, sx, kF32, {2, 1}, kTiling, {"dequantScaleXOptional", "must be null"}},
      {v2, partial, sckv, kF32, {1, 512}, kTiling, {"quantScaleCkvOptional", "must be null"}},
      {v2, partial, smooth, kF32, {1, 1024}, kTiling, {"smoothScalesCqOptional", "shape"}},
      {v2, partial_kv, sckr, kNull, {}, kTiling, {"quantScaleCkrOptional", "required"}},
      {v1, partial_kv, sckv, kF32, {1, 256}, kTiling, {"quantScaleCkvOptional", "shape"}},
      {v2, partial_kv, &MlaTensors::kr, kBf16, {2, 16, 1, 64}, kInvalid, {"combinations"}},
      {v2, full, sx, kF32, {2, 2}, kTiling, {"dequantScaleXOptional", "shape"}},
      {v2, full, sdq, kNull, {}, kTiling, {"dequantScaleWDqOptional", "required"}},
      {v1, full, sdkv, kNull, {}, kTiling, {"dequantScaleWDkvKrOptional", "required"}},
      {v2, full_kv, sckr, kF32, {1, 64}, kTiling, {"quantScaleCkrOptional", "must be null"}},
      {v2, full, &MlaTensors::dq, kBf16, {7168, 1536}, kInvalid, {"combinations"}},
      {v2, full_kv, &MlaTensors::kr, kI8, {2, 16, 1, 64}, kInvalid, {"combinations"}},
      {v2, full_kv, &MlaTensors::query, kBf16, {2, 1, 2, 512}, kInvalid, {"combinations"}},
      {v2, full_kv, qnope, kNull, {}, kTiling, {"dequantScaleQNopeOutOptional", "required"}},
      {v2, full_kv, qnope, kF32, {2, 1, 1}, kTiling, {"dequantScaleQNopeOutOptional", "shape"}},
  };
  const auto make = [](const Bad& bad, Rng& rng) {
    std::vector<int64_t> slots;
    MlaTensors m =
        MakeQuantTensors({.base = {.name = "reject", .op = bad.op, .b = 2, .s = 1}, .quant = bad.quant}, rng, slots);
    (m.*bad.field).reset();
    if (bad.dtype != ACL_DT_UNDEFINED) m.*bad.field = std::make_unique<DeviceTensor>(bad.dtype, bad.shape);
    return m;
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "case " << i << " (" << cases[i].keywords[0] << ")");
    Rng rng = Rng::ForCurrentTest();
    ExpectRejectedWith(Call(make(cases[i], rng), cases[i].op), cases[i].status, cases[i].keywords);
  }
  // MlaProlog's full-quantisation column with INT8 caches (and a BFLOAT16 queryOut) needs the
  // dequantScaleQNope output it lacks.
  Rng rng = Rng::ForCurrentTest();
  MlaTensors m = make({v1, full_kv, &MlaTensors::kr, kI8, {2, 16, 1, 64}, kTiling, {}}, rng);
  m.query = std::make_unique<DeviceTensor>(kBf16, Shape{2, 1, 2, 512});
  m.q_nope_scale.reset();
  ExpectRejectedWith(Call(m, v1), kTiling, {"dequantScaleQNope"});
}

// V3's own rejections: cacheIndexOptional is optional in the op definition only (its tiling fails
// without it), actualSeqLenOptional is INT32 and queryNormOutOptional INT8 or BFLOAT16 (161002).
TEST(MlaPrologV3, Rejections) {
  Rng rng = Rng::ForCurrentTest();
  std::vector<int64_t> slots;
  MlaTensors m = MakeTensors(MlaCase{.name = "reject", .op = Op::kV3, .b = 2, .s = 1}, rng, slots);
  ASSERT_TRUE(Call(m, Op::kV3).ok());
  std::unique_ptr<DeviceTensor> index = std::move(m.index);
  ExpectRejectedWith(Call(m, Op::kV3), ACLNN_ERR_INNER_TILING_ERROR, {"cacheIndex", "null"});
  m.index = std::move(index);
  m.actual_seq_len = std::make_unique<DeviceTensor>(ACL_INT64, Shape{2});
  ExpectRejectedWith(Call(m, Op::kV3), ACLNN_ERR_PARAM_INVALID, {"actualSeqLenOptional"});
  m.actual_seq_len.reset();
  m.query_norm = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{2, 1536});
  ExpectRejectedWith(Call(m, Op::kV3), ACLNN_ERR_PARAM_INVALID, {"queryNormOutOptional"});
}

// No token: phase 1 passes, nothing is written (outputs are empty, the caches keep their values).
TEST(MlaProlog, EmptyTokens) {
  for (const Op op : {Op::kV1, Op::kV2, Op::kV3}) {
    for (const bool fused : {false, true}) {
      Rng rng = Rng::ForCurrentTest();
      std::vector<int64_t> slots;
      const MlaCase c{.name = "empty", .op = op, .b = 0, .s = 1, .fused = fused};
      const MlaTensors m = MakeTensors(c, rng, slots);
      const std::vector<uint8_t> kv = m.kv->DownloadBytes(), kr = m.kr->DownloadBytes();
      const OpRun run = Call(m, op);
      EXPECT_TRUE(run.ok()) << Describe(run);
      EXPECT_EQ(run.workspaceSize, 0U);
      EXPECT_EQ(m.kv->DownloadBytes(), kv);
      EXPECT_EQ(m.kr->DownloadBytes(), kr);
    }
  }
}

// A slot past BlockNum * BlockSize fails the run, and neither cache is written.
TEST(MlaProlog, SlotsOutsideTheCacheFailTheRun) {
  Rng rng = Rng::ForCurrentTest();
  std::vector<int64_t> slots;
  const MlaCase c{.name = "outside", .b = 2, .s = 1};
  const MlaTensors m = MakeTensors(c, rng, slots);
  m.index->WriteView({Value(3.0), Value(32.0)});
  const std::vector<uint8_t> kv = m.kv->DownloadBytes(), kr = m.kr->DownloadBytes();
  const OpRun run = Call(m, Op::kV1);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_EQ(m.kv->DownloadBytes(), kv);
  EXPECT_EQ(m.kr->DownloadBytes(), kr);
}

// The rejections, in the order CANN checks: the op definition's dtypes (161002), then the
// tiling's format, rank, cacheMode, dimension and scenario checks (561002).
TEST(MlaProlog, Rejections) {
  struct Bad {
    const char* name;
    std::function<void(MlaTensors&, Rng&)> change;
    aclnnStatus status;
    const char* keyword;
  };
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const auto replace = [](std::unique_ptr<DeviceTensor>& t, aclDataType dtype, const Shape& shape) {
    t = std::make_unique<DeviceTensor>(dtype, shape);
  };
  const std::vector<Bad> cases = {
      {"tokenX f16",
       [&](MlaTensors& m, Rng&) {
         replace(m.x, ACL_FLOAT16, {2, 1, 7168});
       },
       kInvalid, "tokenX"},
      {"weightUk int8",
       [&](MlaTensors& m, Rng&) {
         replace(m.uk, ACL_INT8, {2, 128, 512});
       },
       kInvalid, "weightUk"},
      {"ropeSin f32",
       [&](MlaTensors& m, Rng&) {
         replace(m.sin, ACL_FLOAT, {2, 1, 64});
       },
       kInvalid, "ropeSin"},
      {"cacheIndex int32",
       [&](MlaTensors& m, Rng&) {
         replace(m.index, ACL_INT32, {2, 1});
       },
       kInvalid, "cacheIndex"},
      {"int8 caches with bf16 weightUqQr",
       [&](MlaTensors& m, Rng&) {
         replace(m.kv, ACL_INT8, {2, 16, 1, 512});
         replace(m.kr, ACL_INT8, {2, 16, 1, 64});
       },
       kInvalid, "combinations"},
      {"queryOut int8",
       [&](MlaTensors& m, Rng&) {
         replace(m.query, ACL_INT8, {2, 1, 2, 512});
       },
       kInvalid, "queryOut"},
      {"tokenX rank 4",
       [&](MlaTensors& m, Rng&) {
         replace(m.x, ACL_BF16, {2, 1, 1, 7168});
       },
       kTiling, "tokenX"},
      {"weightDq rank 3",
       [&](MlaTensors& m, Rng&) {
         replace(m.dq, ACL_BF16, {1, 7168, 1536});
       },
       kTiling, "weightDq"},
      {"weightUk rank 2",
       [&](MlaTensors& m, Rng&) {
         replace(m.uk, ACL_BF16, {256, 512});
       },
       kTiling, "weightUk"},
      {"cacheIndex rank 3",
       [&](MlaTensors& m, Rng&) {
         replace(m.index, ACL_INT64, {2, 1, 1});
       },
       kTiling, "cacheIndex"},
      {"kvCache rank 3",
       [&](MlaTensors& m, Rng&) {
         replace(m.kv, ACL_BF16, {32, 1, 512});
       },
       kTiling, "kvCacheRef"},
      {"cacheMode", [&](MlaTensors& m, Rng&) { m.cache_mode = "BNSD"; }, kTiling, "cacheMode"},
      {"He",
       [&](MlaTensors& m, Rng&) {
         replace(m.x, ACL_BF16, {2, 1, 4096});
       },
       kTiling, "He"},
      {"S",
       [&](MlaTensors& m, Rng&) {
         replace(m.x, ACL_BF16, {1, 17, 7168});
       },
       kTiling, "S"},
      {"Hcq",
       [&](MlaTensors& m, Rng&) {
         replace(m.dq, ACL_BF16, {7168, 1024});
       },
       kTiling, "Hcq"},
      {"N",
       [&](MlaTensors& m, Rng&) {
         replace(m.uk, ACL_BF16, {3, 128, 512});
       },
       kTiling, "N"},
      {"D",
       [&](MlaTensors& m, Rng&) {
         replace(m.uk, ACL_BF16, {2, 64, 512});
       },
       kTiling, "D"},
      {"Hckv",
       [&](MlaTensors& m, Rng&) {
         replace(m.kv, ACL_BF16, {2, 16, 1, 256});
       },
       kTiling, "Hckv"},
      {"Dr",
       [&](MlaTensors& m, Rng&) {
         replace(m.cos, ACL_BF16, {2, 1, 32});
       },
       kTiling, "Dr"},
      {"Nkv",
       [&](MlaTensors& m, Rng&) {
         replace(m.kv, ACL_BF16, {2, 16, 2, 512});
       },
       kTiling, "Nkv"},
      {"BlockSize",
       [&](MlaTensors& m, Rng&) {
         replace(m.kv, ACL_BF16, {2, 32, 1, 512});
       },
       kTiling, "BlockSize"},
      {"weightUqQr columns",
       [&](MlaTensors& m, Rng&) {
         replace(m.uq_qr, ACL_BF16, {1536, 192});
       },
       kTiling, "weightUqQr"},
      {"weightDkvKr rows",
       [&](MlaTensors& m, Rng&) {
         replace(m.dkv_kr, ACL_BF16, {7680, 576});
       },
       kTiling, "weightDkvKr"},
      {"gammaCq", [&](MlaTensors& m, Rng&) { replace(m.gamma_cq, ACL_BF16, {1024}); }, kTiling, "rmsnormGammaCq"},
      {"ropeSin tokens",
       [&](MlaTensors& m, Rng&) {
         replace(m.sin, ACL_BF16, {2, 2, 64});
       },
       kTiling, "ropeSin"},
      {"cacheIndex fused", [&](MlaTensors& m, Rng&) { replace(m.index, ACL_INT64, {2}); }, kTiling, "cacheIndex"},
      {"krCache blocks",
       [&](MlaTensors& m, Rng&) {
         replace(m.kr, ACL_BF16, {3, 16, 1, 64});
       },
       kTiling, "krCacheRef"},
      {"queryRopeOut heads",
       [&](MlaTensors& m, Rng&) {
         replace(m.query_rope, ACL_BF16, {2, 1, 1, 64});
       },
       kTiling, "queryRopeOut"},
      {"queryOut fused",
       [&](MlaTensors& m, Rng&) {
         replace(m.query, ACL_BF16, {2, 2, 512});
       },
       kTiling, "queryOut"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.name);
    Rng rng = Rng::ForCurrentTest();
    std::vector<int64_t> slots;
    MlaTensors m = MakeTensors(MlaCase{.name = "reject", .b = 2, .s = 1}, rng, slots);
    bad.change(m, rng);
    ExpectRejectedWith(Call(m, Op::kV1), bad.status, {bad.keyword});
  }
}

// The scenario's optional arguments: a quantisation scale with BF16 weights is 561002; a weight in a
// private format other than FRACTAL_NZ is too; null required tensors are 161001.
TEST(MlaProlog, ScenarioAndNullRejections) {
  Rng rng = Rng::ForCurrentTest();
  std::vector<int64_t> slots;
  const MlaTensors m = MakeTensors(MlaCase{.name = "reject", .b = 2, .s = 1}, rng, slots);
  const DeviceTensor scale(ACL_FLOAT, {1, 512});
  for (int position = 0; position < 7; ++position) {
    SCOPED_TRACE(position);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          std::vector<aclTensor*> optional(7, nullptr);
          optional[static_cast<size_t>(position)] = a.Tensor(scale);
          return aclnnMlaPrologGetWorkspaceSize(
              a.Tensor(*m.x), a.Tensor(*m.dq), a.Tensor(*m.uq_qr), a.Tensor(*m.uk), a.Tensor(*m.dkv_kr),
              a.Tensor(*m.gamma_cq), a.Tensor(*m.gamma_ckv), a.Tensor(*m.sin), a.Tensor(*m.cos), a.Tensor(*m.index),
              a.Tensor(*m.kv), a.Tensor(*m.kr), optional[0], optional[1], optional[2], optional[3], optional[4],
              optional[5], optional[6], 1e-5, 1e-5, "PA_BSND", a.Tensor(*m.query), a.Tensor(*m.query_rope), w, e);
        },
        aclnnMlaProlog);
    ExpectRejectedWith(run, ACLNN_ERR_INNER_TILING_ERROR, {"must be null"});
  }
  const OpRun nc1hwc0 = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMlaPrologGetWorkspaceSize(
            a.Tensor(*m.x), a.Tensor(*m.dq, ACL_FORMAT_NC1HWC0), a.Tensor(*m.uq_qr), a.Tensor(*m.uk),
            a.Tensor(*m.dkv_kr), a.Tensor(*m.gamma_cq), a.Tensor(*m.gamma_ckv), a.Tensor(*m.sin), a.Tensor(*m.cos),
            a.Tensor(*m.index), a.Tensor(*m.kv), a.Tensor(*m.kr), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, 1e-5, 1e-5, "PA_BSND", a.Tensor(*m.query), a.Tensor(*m.query_rope), w, e);
      },
      aclnnMlaProlog);
  ExpectRejectedWith(nc1hwc0, ACLNN_ERR_INNER_TILING_ERROR, {"weightDq", "FRACTAL_NZ"});
  const OpRun null_mode = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMlaPrologGetWorkspaceSize(
            a.Tensor(*m.x), a.Tensor(*m.dq), a.Tensor(*m.uq_qr), a.Tensor(*m.uk), a.Tensor(*m.dkv_kr),
            a.Tensor(*m.gamma_cq), a.Tensor(*m.gamma_ckv), a.Tensor(*m.sin), a.Tensor(*m.cos), a.Tensor(*m.index),
            a.Tensor(*m.kv), a.Tensor(*m.kr), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 1e-5, 1e-5,
            nullptr, a.Tensor(*m.query), a.Tensor(*m.query_rope), w, e);
      },
      aclnnMlaProlog);
  ExpectRejectedWith(null_mode, ACLNN_ERR_PARAM_NULLPTR, {"cacheModeOptional"});
}

}  // namespace
}  // namespace canopy_test
