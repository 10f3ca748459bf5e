// aclnnDequantRopeQuantKvcache against a float64 reference: an INT32 x dequantised ((x + bias) * w * a
// for an INT32 bias, else x * w * a + bias, in f32; rounded to f16 before RoPE where cos is f16), q and k
// rotated (rotate-half; with f16 cos exactly as the kernel's f16 arithmetic rounds), k and v quantised (rint(value /
// scale + offset), saturated to INT8) into the caches at b * C2 + indices[b] + s (contiguous) or indices[token] (page,
// -1 skipped); every x dtype and bias dtype, both cache modes, offsets or not, kvOutput or not, rank 2 and 3, views,
// empties, CANN's example, out-of-range indices failing the run, and rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_dequant_rope_quant_kvcache.h"
#include "llm_test_support.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

struct KvCase {
  std::string name;
  aclDataType x = ACL_FLOAT16, cos = ACL_FLOAT16;
  std::optional<aclDataType> bias = std::nullopt;  // INT32 x only
  bool activation = false, offsets = true, page = false, kvOutput = true, rank2 = false;
  int64_t batch = 2, seq = 3, headsQ = 2, headsKv = 1, dim = 32, cacheBatch = 3, cacheSeq = 8;
  View xView = View::kContiguous, cosView = View::kContiguous, outView = View::kContiguous,
       cacheView = View::kContiguous;
  bool skipSlot = false;  // page mode: one token's index -1
};
void PrintTo(const KvCase& c, std::ostream* os) { *os << c.name; }

double ToHalf(double v) { return ConvertValue(v, ACL_FLOAT16).real(); }

// One rotate-half row: x * cos + [-x2, x1] * sin; with `half` the f16 kernel's arithmetic, each
// product and the sum rounded to f16 (products of f16 values are exact in double, so this is exact).
std::vector<double> RotateHalf(const std::vector<double>& x, const double* c, const double* s, bool half) {
  const size_t d = x.size(), m = d / 2;
  std::vector<double> y(d);
  for (size_t i = 0; i < d; ++i) {
    const double rot = (i < m ? -x[i + m] : x[i - m]) * s[i];
    y[i] = half ? ToHalf(ToHalf(rot) + ToHalf(x[i] * c[i])) : x[i] * c[i] + rot;
  }
  return y;
}

// Quantised value of `v` (which may be off by `err`): exact, or 1 either way near a rounding tie.
void QuantExpect(double v, double err, Values& want, std::vector<double>& tol) {
  const double q = std::clamp(std::nearbyint(v), -128.0, 127.0);
  want.emplace_back(q);
  const double frac = std::abs(v - std::floor(v) - 0.5);
  tol.push_back(frac <= err + 1e-4 && std::abs(v) < 128.5 ? 1 : 0);
}

// A uniform draw from [0, n).
size_t Pick(Rng& rng, int64_t n) {
  return static_cast<size_t>(std::min<double>(std::floor(rng.Uniform(0, static_cast<double>(n))), double(n - 1)));
}

class DequantRopeQuantKvcacheTest : public ::testing::TestWithParam<KvCase> {};

TEST_P(DequantRopeQuantKvcacheTest, MatchesFloat64Reference) {
  const KvCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t b = c.batch, s = c.rank2 ? 1 : c.seq, d = c.dim, nq = c.headsQ, nkv = c.headsKv;
  const int64_t tokens = b * s, h = (nq + 2 * nkv) * d, kvw = nkv * d, qw = nq * d;
  const bool dequant = c.x == ACL_INT32;
  const Shape xShape = c.rank2 ? Shape{b, h} : Shape{b, s, h};
  const Shape table = c.rank2 ? Shape{b, d} : Shape{b, s, 1, d};
  const Shape cacheShape = {c.cacheBatch, c.cacheSeq, nkv, d};
  const Shape qShape = c.rank2 ? Shape{b, nq, d} : Shape{b, s, nq, d};
  const Shape kvShape = c.rank2 ? Shape{b, nkv, d} : Shape{b, s, nkv, d};
  DeviceTensor x(c.x, xShape, c.xView), cosT(c.cos, table, c.cosView), sinT(c.cos, table),
      kCache(ACL_INT8, cacheShape, c.cacheView), vCache(ACL_INT8, cacheShape, c.cacheView),
      indices(ACL_INT32, {c.page ? tokens : b}), scaleK(ACL_FLOAT, {nkv, d}), scaleV(ACL_FLOAT, {kvw}),
      qOut(c.cos, qShape, c.outView), kOut(c.cos, kvShape, c.outView), vOut(c.cos, kvShape);
  std::optional<DeviceTensor> offK, offV, weight, act, bias;
  const std::vector<double> xv = Reals(x.FillRandom(rng, dequant ? Range{-60, 60} : Range{-4, 4}));
  const std::vector<double> cv = Reals(cosT.FillRandom(rng, Range{-1, 1}));
  const std::vector<double> sv = Reals(sinT.FillRandom(rng, Range{-1, 1}));
  const std::vector<double> skv = Reals(scaleK.FillRandom(rng, Range{0.04, 0.2}));
  const std::vector<double> svv = Reals(scaleV.FillRandom(rng, Range{-0.2, -0.04}));
  std::vector<double> okv(static_cast<size_t>(kvw), 0.0), ovv(static_cast<size_t>(kvw), 0.0), wv, av, bv;
  if (c.offsets) {
    offK.emplace(ACL_FLOAT, Shape{kvw});
    offV.emplace(ACL_FLOAT, Shape{nkv, d});
    okv = Reals(offK->FillRandom(rng, Range{-5, 5}));
    ovv = Reals(offV->FillRandom(rng, Range{-5, 5}));
  }
  if (dequant) {
    weight.emplace(ACL_FLOAT, Shape{h});
    wv = Reals(weight->FillRandom(rng, Range{0.02, 0.08}));
    if (c.activation) {
      act.emplace(ACL_FLOAT, Shape{tokens});
      av = Reals(act->FillRandom(rng, Range{0.5, 1.5}));
    }
    if (c.bias) {
      bias.emplace(*c.bias, Shape{h});
      bv = Reals(bias->FillRandom(rng, *c.bias == ACL_INT32 ? Range{-20, 20} : Range{-1, 1}));
    }
  }
  // Indices: contiguous windows inside the cache rows, or distinct page slots.
  std::vector<int64_t> idx;
  if (c.page) {
    std::vector<int64_t> slots(static_cast<size_t>(c.cacheBatch * c.cacheSeq));
    for (size_t i = 0; i < slots.size(); ++i) slots[i] = static_cast<int64_t>(i);
    for (size_t i = slots.size(); i > 1; --i) std::swap(slots[i - 1], slots[Pick(rng, static_cast<int64_t>(i))]);
    idx.assign(slots.begin(), slots.begin() + tokens);
    if (c.skipSlot && tokens > 1) idx[1] = -1;
  } else {
    for (int64_t i = 0; i < b; ++i) idx.push_back(static_cast<int64_t>(Pick(rng, c.cacheSeq - s + 1)));
  }
  Values idxValues;
  for (const int64_t i : idx) idxValues.emplace_back(static_cast<double>(i));
  indices.WriteView(idxValues);
  const std::vector<double> kBefore = Reals(kCache.FillRandom(rng, Range{-128, 127}));
  const std::vector<double> vBefore = Reals(vCache.FillRandom(rng, Range{-128, 127}));
  qOut.Poison();
  kOut.Poison();
  vOut.Poison();
  const std::vector<int64_t> splits = {qw, kvw, kvw};
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
            a.Tensor(x), a.Tensor(cosT), a.Tensor(sinT), a.Tensor(kCache), a.Tensor(vCache), a.Tensor(indices),
            a.Tensor(scaleK), a.Tensor(scaleV), Or(a, offK), Or(a, offV), Or(a, weight), Or(a, act), Or(a, bias),
            a.IntArray(splits), "static", "BSND", c.kvOutput, c.page ? "PAGE" : "contiguous", a.Tensor(qOut),
            a.Tensor(kOut), a.Tensor(vOut), w, e);
      },
      aclnnDequantRopeQuantKvcache);

  const bool half = c.cos == ACL_FLOAT16;
  const double unit = UnitRoundoff(ACL_FLOAT);
  Values wantQ, wantK, wantV;
  std::vector<double> qMag, kMag, kErr, kRaw, vRaw;
  for (int64_t t = 0; t < tokens; ++t) {
    std::vector<double> row(static_cast<size_t>(h));
    for (int64_t j = 0; j < h; ++j) {
      double v = xv[static_cast<size_t>(t * h + j)];
      if (dequant) {
        const auto ju = static_cast<size_t>(j);
        const bool intBias = c.bias && *c.bias == ACL_INT32;
        // In f32 in the documented order; the f16 kernel rounds the dequantised q and k to f16.
        auto f = static_cast<float>(intBias ? v + bv[ju] : v) * static_cast<float>(wv[ju]);
        if (c.activation) f *= static_cast<float>(av[static_cast<size_t>(t)]);
        if (c.bias && !intBias) f += static_cast<float>(bv[ju]);
        v = half && j < qw + kvw ? ToHalf(f) : f;
      }
      row[static_cast<size_t>(j)] = v;
    }
    const double* ct = cv.data() + t * d;
    const double* st = sv.data() + t * d;
    for (int64_t head = 0; head < nq + nkv; ++head) {
      const std::vector<double> in(row.begin() + head * d, row.begin() + (head + 1) * d);
      double mag = 0;
      for (const double v : in) mag = std::max(mag, 2 * std::abs(v));
      const std::vector<double> y = RotateHalf(in, ct, st, half);
      for (int64_t i = 0; i < d; ++i) {
        if (head < nq) {
          wantQ.emplace_back(y[static_cast<size_t>(i)]);
          qMag.push_back(mag);
        } else {
          const auto j = static_cast<size_t>((head - nq) * d + i);
          wantK.emplace_back(y[static_cast<size_t>(i)]);
          kMag.push_back(mag);
          kRaw.push_back(y[static_cast<size_t>(i)] / skv[j] + okv[j]);
          kErr.push_back(half ? 1e-5 * (1 + std::abs(kRaw.back())) : 4 * unit * (mag + 1e-3) / skv[j]);
        }
      }
    }
    for (int64_t j = 0; j < kvw; ++j) {
      const double v = row[static_cast<size_t>(qw + kvw + j)];
      wantV.emplace_back(v);
      vRaw.push_back(v / svv[static_cast<size_t>(j)] + ovv[static_cast<size_t>(j)]);
    }
  }
  // f16: exact; bf16: f32 arithmetic against float64, rounded to bf16.
  const auto rope = [&](const Values& want, const std::vector<double>& mag) {
    return half ? Expected{want, std::vector<double>(want.size(), 0)} : RelativeTolerance(want, c.cos, 6, mag);
  };
  ExpectNear(qOut.ReadView(), rope(wantQ, qMag), c.name + " qOut");
  if (c.kvOutput) {
    ExpectNear(kOut.ReadView(), rope(wantK, kMag), c.name + " kOut");
    ExpectNear(vOut.ReadView(), RelativeTolerance(wantV, c.cos, 2), c.name + " vOut");
  } else {
    for (const Value& v : kOut.ReadView()) ASSERT_TRUE(std::isnan(v.real())) << "kOut written without kvOutput";
    for (const Value& v : vOut.ReadView()) ASSERT_TRUE(std::isnan(v.real())) << "vOut written without kvOutput";
  }
  // The caches: rows not written keep their values.
  Expected wantKc{Values(kBefore.begin(), kBefore.end()), std::vector<double>(kBefore.size(), 0)};
  Expected wantVc{Values(vBefore.begin(), vBefore.end()), std::vector<double>(vBefore.size(), 0)};
  for (int64_t t = 0; t < tokens; ++t) {
    const int64_t row =
        c.page ? idx[static_cast<size_t>(t)] : (t / s) * c.cacheSeq + idx[static_cast<size_t>(t / s)] + t % s;
    if (row < 0) continue;
    for (int64_t j = 0; j < kvw; ++j) {
      const auto at = static_cast<size_t>(row * kvw + j), from = static_cast<size_t>(t * kvw + j);
      Values one;
      std::vector<double> tol;
      QuantExpect(kRaw[from], kErr[from], one, tol);
      QuantExpect(vRaw[from], 1e-5 * (1 + std::abs(vRaw[from])), one, tol);
      wantKc.values[at] = one[0];
      wantKc.tolerance[at] = tol[0];
      wantVc.values[at] = one[1];
      wantVc.tolerance[at] = tol[1];
    }
  }
  ExpectNear(kCache.ReadView(), wantKc, c.name + " kCacheRef");
  ExpectNear(vCache.ReadView(), wantVc, c.name + " vCacheRef");
}

std::vector<KvCase> Cases() {
  std::vector<KvCase> cases;
  const View st = View::kStepped, tr = View::kTransposed;
  cases.push_back({.name = "f16"});
  cases.push_back({.name = "bf16", .x = ACL_BF16, .cos = ACL_BF16, .offsets = false});
  cases.push_back({.name = "f16_page_skip", .page = true, .skipSlot = true});
  cases.push_back({.name = "bf16_page_rank2", .x = ACL_BF16, .cos = ACL_BF16, .page = true, .rank2 = true});
  cases.push_back({.name = "f16_no_kv_output", .offsets = false, .kvOutput = false, .headsKv = 2});
  cases.push_back({.name = "f16_views", .xView = st, .cosView = tr, .outView = st, .cacheView = st});
  cases.push_back({.name = "bf16_views_page",
                   .x = ACL_BF16,
                   .cos = ACL_BF16,
                   .page = true,
                   .xView = tr,
                   .cosView = st,
                   .outView = tr,
                   .cacheView = st});
  cases.push_back({.name = "f16_d64_heads", .headsQ = 4, .headsKv = 2, .dim = 64});
  for (const aclDataType cos : {ACL_FLOAT16, ACL_BF16}) {
    const std::string n = std::string("i32_") + Name(cos);
    cases.push_back({.name = n + "_plain", .x = ACL_INT32, .cos = cos});
    cases.push_back({.name = n + "_act", .x = ACL_INT32, .cos = cos, .activation = true, .offsets = false});
    for (const aclDataType bias : {ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      cases.push_back({.name = n + "_bias_" + Name(bias),
                       .x = ACL_INT32,
                       .cos = cos,
                       .bias = bias,
                       .activation = true,
                       .page = bias == ACL_FLOAT});
    }
    cases.push_back({.name = n + "_page_views",
                     .x = ACL_INT32,
                     .cos = cos,
                     .bias = ACL_INT32,
                     .page = true,
                     .rank2 = true,
                     .xView = st,
                     .outView = st,
                     .cacheView = st});
  }
  cases.push_back({.name = "empty_batch", .batch = 0});
  cases.push_back({.name = "empty_seq_i32", .x = ACL_INT32, .seq = 0});
  cases.push_back({.name = "no_q_heads", .headsQ = 0});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, DequantRopeQuantKvcacheTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<KvCase>& info) { return info.param.name; });

// A run with the given indices on a small f16 problem (B 2, S 2, C [2, 4, 1, 16]).
OpRun RunWithIndices(const std::vector<double>& idx, bool page) {
  DeviceTensor x(ACL_FLOAT16, {2, 2, 48}), cosT(ACL_FLOAT16, {2, 2, 1, 16}), sinT(ACL_FLOAT16, {2, 2, 1, 16}),
      kCache(ACL_INT8, {2, 4, 1, 16}), vCache(ACL_INT8, {2, 4, 1, 16}),
      indices(ACL_INT32, {static_cast<int64_t>(idx.size())}), scale(ACL_FLOAT, {16}), q(ACL_FLOAT16, {2, 2, 1, 16}),
      k(ACL_FLOAT16, {2, 2, 1, 16}), v(ACL_FLOAT16, {2, 2, 1, 16});
  Rng rng(7);
  x.FillRandom(rng, Range{-1, 1});
  cosT.FillRandom(rng, Range{-1, 1});
  sinT.FillRandom(rng, Range{-1, 1});
  scale.FillRandom(rng, Range{0.5, 1});
  indices.WriteView(Values(idx.begin(), idx.end()));
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
            a.Tensor(x), a.Tensor(cosT), a.Tensor(sinT), a.Tensor(kCache), a.Tensor(vCache), a.Tensor(indices),
            a.Tensor(scale), a.Tensor(scale), nullptr, nullptr, nullptr, nullptr, nullptr, a.IntArray({16, 16, 16}),
            nullptr, nullptr, true, page ? "page" : nullptr, a.Tensor(q), a.Tensor(k), a.Tensor(v), w, e);
      },
      aclnnDequantRopeQuantKvcache);
}

TEST(DequantRopeQuantKvcache, IndicesOutsideTheCacheFailTheRun) {
  for (const auto& [idx, page] :
       std::vector<std::pair<std::vector<double>, bool>>{{{0, 3}, false}, {{-1, 0}, false}, {{0, 1, 2, 8}, true}}) {
    const OpRun run = RunWithIndices(idx, page);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_NE(run.message.find("indices"), std::string::npos) << run.message;
  }
  EXPECT_TRUE(RunWithIndices({2, 0}, false).ok());
  EXPECT_TRUE(RunWithIndices({7, -1, -5, 0}, true).ok());
}

// CANN's example: x INT32 ones [1, 1, 128], cos and sin f16 bits 1, caches of 6, every f32 operand
// the bit pattern of INT32 2, indices 0, kvOutput, contiguous.
TEST(DequantRopeQuantKvcache, CannExample) {
  const int64_t d = 32, h = 128;
  DeviceTensor x(ACL_INT32, {1, 1, h}), cosT(ACL_FLOAT16, {1, 1, 1, d}), sinT(ACL_FLOAT16, {1, 1, 1, d}),
      kCache(ACL_INT8, {1, h, 1, d}), vCache(ACL_INT8, {1, h, 1, d}), indices(ACL_INT32, {1}), scaleK(ACL_FLOAT, {d}),
      scaleV(ACL_FLOAT, {d}), offK(ACL_FLOAT, {d}), offV(ACL_FLOAT, {d}), weight(ACL_FLOAT, {h}), act(ACL_FLOAT, {1}),
      bias(ACL_FLOAT, {h}), q(ACL_FLOAT16, {1, 1, 2, d}), k(ACL_FLOAT16, {1, 1, 1, d}), v(ACL_FLOAT16, {1, 1, 1, d});
  const auto bytesOf = [](int32_t value, size_t count, size_t width) {
    std::vector<uint8_t> bytes(count * width);
    for (size_t i = 0; i < count; ++i) std::memcpy(bytes.data() + i * width, &value, width);
    return bytes;
  };
  x.UploadBytes(bytesOf(1, h, 4));
  cosT.UploadBytes(bytesOf(1, d, 2));
  sinT.UploadBytes(bytesOf(1, d, 2));
  kCache.UploadBytes(bytesOf(6, h * d, 1));
  vCache.UploadBytes(bytesOf(6, h * d, 1));
  indices.UploadBytes(bytesOf(0, 1, 4));
  for (DeviceTensor* t : {&scaleK, &scaleV, &offK, &offV, &weight, &act, &bias}) {
    t->UploadBytes(bytesOf(2, static_cast<size_t>(t->numel()), 4));
  }
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
            a.Tensor(x), a.Tensor(cosT), a.Tensor(sinT), a.Tensor(kCache), a.Tensor(vCache), a.Tensor(indices),
            a.Tensor(scaleK), a.Tensor(scaleV), a.Tensor(offK), a.Tensor(offV), a.Tensor(weight), a.Tensor(act),
            a.Tensor(bias), a.IntArray({2 * d, d, d}), "static", "BSND", true, "contiguous", a.Tensor(q), a.Tensor(k),
            a.Tensor(v), w, e);
      },
      aclnnDequantRopeQuantKvcache);
  // Every f32 operand is 2^-148 (INT32 2): the dequantised values (1 * w * a + bias) are 2^-148 too,
  // which rounds to f16 0, so q and k are 0; v is 2^-148 (f16 0 in vOut); quantised, k is
  // 0 / s + o = o (0 after rounding) and v is 2^-148 / 2^-148 + o = 1.
  for (const Value& value : q.ReadView()) EXPECT_EQ(value.real(), 0.0);
  for (const Value& value : k.ReadView()) EXPECT_EQ(value.real(), 0.0);
  for (const Value& value : v.ReadView()) EXPECT_EQ(value.real(), 0.0);
  const Values kc = kCache.ReadView(), vc = vCache.ReadView();
  for (int64_t i = 0; i < h * d; ++i) {
    EXPECT_EQ(kc[static_cast<size_t>(i)].real(), i < d ? 0.0 : 6.0) << i;
    EXPECT_EQ(vc[static_cast<size_t>(i)].real(), i < d ? 1.0 : 6.0) << i;
  }
}

TEST(DequantRopeQuantKvcache, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x = ACL_FLOAT16, cos = ACL_FLOAT16, sin = ACL_FLOAT16, cache = ACL_INT8, indices = ACL_INT32,
                scale = ACL_FLOAT, q = ACL_FLOAT16, bias = ACL_FLOAT;
    Shape xShape = {2, 3, 64}, cosShape = {2, 3, 1, 16}, kCacheShape = {2, 8, 1, 16}, vCacheShape = {2, 8, 1, 16},
          indicesShape = {2}, scaleShape = {16}, offsetShape = {16}, qShape = {2, 3, 2, 16}, weightShape = {64},
          actShape = {6};
    std::vector<int64_t> splits = {32, 16, 16};
    bool withWeight = false, withOffsets = false, withBias = false, withAct = false, page = false;
    aclnnStatus status = ACLNN_ERR_INNER_TILING_ERROR;
    const char* keyword = "";
  };
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  const Bad cases[] = {
      {.name = "x dtype", .x = ACL_FLOAT, .status = kInvalid, .keyword = "'x'"},
      {.name = "cos dtype", .cos = ACL_FLOAT, .status = kInvalid, .keyword = "'cos'"},
      {.name = "x f16 cos bf16",
       .cos = ACL_BF16,
       .sin = ACL_BF16,
       .q = ACL_BF16,
       .status = kInvalid,
       .keyword = "'cos'"},
      {.name = "sin dtype", .sin = ACL_BF16, .status = kInvalid, .keyword = "'sin'"},
      {.name = "q dtype", .q = ACL_FLOAT, .status = kInvalid, .keyword = "'qOut'"},
      {.name = "cache dtype", .cache = ACL_UINT8, .status = kInvalid, .keyword = "kCacheRef"},
      {.name = "indices dtype", .indices = ACL_INT64, .status = kInvalid, .keyword = "indices"},
      {.name = "scale dtype", .scale = ACL_FLOAT16, .status = kInvalid, .keyword = "scaleK"},
      {.name = "bias dtype", .bias = ACL_INT8, .withBias = true, .status = kInvalid, .keyword = "biasOptional"},
      {.name = "splits count", .splits = {32, 32}, .keyword = "sizeSplits"},
      {.name = "k and v differ", .splits = {16, 16, 32}, .keyword = "sizeSplits"},
      {.name = "negative q", .xShape = {2, 3, 16}, .splits = {-16, 16, 16}, .keyword = "sizeSplits"},
      {.name = "x rank", .xShape = {6, 64, 1, 1}, .keyword = "'x'"},
      {.name = "x last dim", .xShape = {2, 3, 80}, .keyword = "'x'"},
      {.name = "cache rank", .kCacheShape = {2, 8, 16}, .keyword = "kCacheRef"},
      {.name = "cache head width", .kCacheShape = {2, 8, 2, 16}, .vCacheShape = {2, 8, 2, 16}, .keyword = "kCacheRef"},
      {.name = "D not multiple of 16",
       .xShape = {2, 3, 32},
       .cosShape = {2, 3, 1, 8},
       .kCacheShape = {2, 8, 1, 8},
       .vCacheShape = {2, 8, 1, 8},
       .scaleShape = {8},
       .qShape = {2, 3, 2, 8},
       .splits = {16, 8, 8},
       .keyword = "16"},
      {.name = "q not heads of D",
       .xShape = {2, 3, 56},
       .qShape = {2, 3, 24},
       .splits = {24, 16, 16},
       .keyword = "multiples of D"},
      {.name = "cos shape", .cosShape = {2, 3, 16}, .keyword = "'cos'"},
      {.name = "indices shape", .indicesShape = {6}, .keyword = "indices"},
      {.name = "page indices shape", .indicesShape = {2}, .page = true, .keyword = "indices"},
      {.name = "caches differ", .vCacheShape = {2, 9, 1, 16}, .keyword = "vCacheRef"},
      {.name = "scale size", .scaleShape = {32}, .keyword = "scaleK"},
      {.name = "cache batch", .kCacheShape = {1, 8, 1, 16}, .vCacheShape = {1, 8, 1, 16}, .keyword = "vCacheRef"},
      {.name = "offset size", .offsetShape = {8}, .withOffsets = true, .keyword = "offsetKOptional"},
      {.name = "int32 without weight", .x = ACL_INT32, .keyword = "weightScaleOptional"},
      {.name = "weight short", .x = ACL_INT32, .weightShape = {32}, .withWeight = true, .keyword = "weightScale"},
      {.name = "activation short",
       .x = ACL_INT32,
       .actShape = {2},
       .withWeight = true,
       .withAct = true,
       .keyword = "activationScale"},
      {.name = "q size", .qShape = {2, 3, 1, 16}, .keyword = "qOut"},
      {.name = "working set",
       .xShape = {2, 3, 32768},
       .cosShape = {2, 3, 1, 8192},
       .kCacheShape = {2, 8, 2, 8192},
       .vCacheShape = {2, 8, 2, 8192},
       .scaleShape = {16384},
       .qShape = {2, 3, 0, 8192},
       .splits = {0, 16384, 16384},
       .keyword = "too large"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.x, bad.xShape), cosT(bad.cos, bad.cosShape), sinT(bad.sin, bad.cosShape),
        kCache(bad.cache, bad.kCacheShape), vCache(bad.cache, bad.vCacheShape), indices(bad.indices, bad.indicesShape),
        scale(bad.scale, bad.scaleShape), offset(ACL_FLOAT, bad.offsetShape), weight(ACL_FLOAT, bad.weightShape),
        act(ACL_FLOAT, bad.actShape), bias(bad.bias, {64}), q(bad.q, bad.qShape), k(bad.cos, {2, 3, 1, 16});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
              a.Tensor(x), a.Tensor(cosT), a.Tensor(sinT), a.Tensor(kCache), a.Tensor(vCache), a.Tensor(indices),
              a.Tensor(scale), a.Tensor(scale), bad.withOffsets ? a.Tensor(offset) : nullptr,
              bad.withOffsets ? a.Tensor(offset) : nullptr, bad.withWeight ? a.Tensor(weight) : nullptr,
              bad.withAct ? a.Tensor(act) : nullptr, bad.withBias ? a.Tensor(bias) : nullptr, a.IntArray(bad.splits),
              "static", "BSND", false, bad.page ? "page" : "contiguous", a.Tensor(q), a.Tensor(k), a.Tensor(k), w, e);
        },
        aclnnDequantRopeQuantKvcache);
    SCOPED_TRACE(bad.name);
    ExpectRejectedWith(run, bad.status, {bad.keyword});
  }
  // Null required tensors and arrays are 161001.
  DeviceTensor x(ACL_FLOAT16, {2, 64}), cosT(ACL_FLOAT16, {2, 16}), cache(ACL_INT8, {2, 4, 1, 16}),
      indices(ACL_INT32, {2}), scale(ACL_FLOAT, {16}), q(ACL_FLOAT16, {2, 2, 16});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
            a.Tensor(x), a.Tensor(cosT), a.Tensor(cosT), a.Tensor(cache), a.Tensor(cache), a.Tensor(indices), nullptr,
            a.Tensor(scale), nullptr, nullptr, nullptr, nullptr, nullptr, a.IntArray({32, 16, 16}), nullptr, nullptr,
            false, nullptr, a.Tensor(q), a.Tensor(q), a.Tensor(q), w, e);
      },
      aclnnDequantRopeQuantKvcache);
  ExpectRejectedWith(run, ACLNN_ERR_PARAM_NULLPTR, {"scaleK"});
}

}  // namespace
}  // namespace canopy_test
