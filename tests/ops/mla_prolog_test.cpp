// aclnnMlaProlog and aclnnMlaPrologV2WeightNz against a float64 reference of the whole formula, with
// the kernel's bf16 rounding of every intermediate (cQ, its RmsNorm, [qC | qR], [cKV | kR]):
// queryOut = qC @ weightUk per head, queryRopeOut = RoPE(qR) (even elements then odd, rotated as
// halves), kvCacheRef / krCacheRef rows RmsNorm(cKV) and RoPE(kR) at cacheIndex's slots (PA_BSND row
// major, PA_NZ as 16-column fractals; negative slots skipped; every other slot unchanged). The fixed
// dims of the A2 tiling (Hcq 1536, Hckv 512, D 128, Dr 64), each He it takes, 2-D and 4-D NZ weights,
// batch > 1, both layouts of tokenX, views, empty token and cache counts, slots past the cache failing
// the run, and the rejections with their codes.
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

// The matrix's bytes as the NZ blocks [cols / 16, rows / 16, 16, 16].
std::vector<uint8_t> NzBytes(const Bf16Matrix& m) {
  std::vector<uint8_t> out(m.bytes.size());
  size_t at = 0;
  for (int64_t j1 = 0; j1 < m.cols / kFrac; ++j1) {
    for (int64_t k = 0; k < m.rows; ++k) {
      std::memcpy(out.data() + at, m.bytes.data() + (k * m.cols + j1 * kFrac) * 2, kFrac * 2);
      at += kFrac * 2;
    }
  }
  return out;
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

double RoundBf16(double v) { return Bf16ToDouble(DoubleToBf16(v)); }

// rows [T, K] @ w [K, N] in float64 (rows given as doubles), and the sums of |terms|.
void Product(const std::vector<double>& a, int64_t t, int64_t k, const Bf16Matrix& w, std::vector<double>& out,
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

// RmsNorm of `length` values times gamma, rounded to bf16.
void RmsRow(const double* x, const std::vector<double>& gamma, double eps, double* y) {
  const auto length = static_cast<int64_t>(gamma.size());
  double sum = 0;
  for (int64_t i = 0; i < length; ++i) sum += x[i] * x[i];
  const double rstd = 1.0 / std::sqrt(sum / static_cast<double>(length) + eps);
  for (int64_t i = 0; i < length; ++i) y[i] = RoundBf16(x[i] * rstd * gamma[static_cast<size_t>(i)]);
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

enum class Op { kV1, kV2 };

struct MlaCase {
  std::string name;
  Op op = Op::kV1;
  int64_t he = 7168, n = 2, b = 2, s = 3;
  bool fused = false;  // tokenX [T, He]
  int64_t block_num = 2, block_size = 16;
  bool nz_cache = false, nz_weights = false, skip_slot = false;
  View x_view = View::kContiguous, out_view = View::kContiguous, cache_view = View::kContiguous,
       table_view = View::kContiguous;
};
void PrintTo(const MlaCase& c, std::ostream* os) { *os << c.name; }

// One call's tensors.
struct MlaTensors {
  std::unique_ptr<DeviceTensor> x, dq, uq_qr, uk, dkv_kr, gamma_cq, gamma_ckv, sin, cos, index, kv, kr, query,
      query_rope, q_nope_scale;
  bool nz_weights = false;
  const char* cache_mode = "PA_BSND";
};

OpRun Call(const MlaTensors& m, Op op) {
  const aclFormat wf = m.nz_weights ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND;
  if (op == Op::kV1) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnMlaPrologGetWorkspaceSize(
              a.Tensor(*m.x), a.Tensor(*m.dq, wf), a.Tensor(*m.uq_qr, wf), a.Tensor(*m.uk), a.Tensor(*m.dkv_kr, wf),
              a.Tensor(*m.gamma_cq), a.Tensor(*m.gamma_ckv), a.Tensor(*m.sin), a.Tensor(*m.cos), a.Tensor(*m.index),
              a.Tensor(*m.kv), a.Tensor(*m.kr), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 1e-5,
              1e-6, m.cache_mode, a.Tensor(*m.query), a.Tensor(*m.query_rope), w, e);
        },
        aclnnMlaProlog);
  }
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMlaPrologV2WeightNzGetWorkspaceSize(
            a.Tensor(*m.x), a.Tensor(*m.dq, wf), a.Tensor(*m.uq_qr, wf), a.Tensor(*m.uk), a.Tensor(*m.dkv_kr, wf),
            a.Tensor(*m.gamma_cq), a.Tensor(*m.gamma_ckv), a.Tensor(*m.sin), a.Tensor(*m.cos), a.Tensor(*m.index),
            a.Tensor(*m.kv), a.Tensor(*m.kr), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 1e-5, 1e-6,
            m.cache_mode, a.Tensor(*m.query), a.Tensor(*m.query_rope),
            m.q_nope_scale ? a.Tensor(*m.q_nope_scale) : nullptr, w, e);
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
  t->UploadBytes(NzBytes(w));
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
  if (c.op == Op::kV2) m.q_nope_scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{1});
  return m;
}

// The element offset of cache row `slot`, column `h` (width H) in either layout.
int64_t CacheOffset(int64_t slot, int64_t h, int64_t width, int64_t block_size, bool nz) {
  if (!nz) return slot * width + h;
  return (slot / block_size) * block_size * width + (h / kFrac) * block_size * kFrac + (slot % block_size) * kFrac +
         h % kFrac;
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
  const OpRun run = Call(m, c.op);
  ASSERT_TRUE(run.ok()) << Describe(run);

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
  for (int64_t r = 0; r < t; ++r) RmsRow(&cq[r * kHcq], gamma_cq, 1e-5, &cq_norm[r * kHcq]);
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
    RmsRow(&ckv_kr[r * (kHckv + kDr)], gamma_ckv, 1e-6, row);
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
  };
}
INSTANTIATE_TEST_SUITE_P(Cases, MlaPrologTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<MlaCase>& info) { return info.param.name; });

// No token: phase 1 passes, nothing is written (outputs are empty, the caches keep their values).
TEST(MlaProlog, EmptyTokens) {
  for (const Op op : {Op::kV1, Op::kV2}) {
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
