// aclnnFusedInferAttentionScoreV4's attention sinks (learnableSinkOptional) and
// the variable-length layouts TND / NTD_TND they need on Atlas A2, against a
// float64 reference: out = sum_j e_j v_j / (sum_j e_j + exp(sink[n] - max)),
// e_j = exp(scale * q . k_j - max), the sink unscaled and carrying no value;
// the LSE over the keys alone (CANN's kernel writes it before adding the sink).
// Each sequence is a segment of the token dim (actualSeqLengths(Kv) its
// cumulative end; with a block table the key lengths per batch); sparse mode 3
// is causal from the bottom right within each sequence. bf16 (the only dtype
// CANN's A2 takes with these layouts), GQA ratios 1 and 4, decode and prefill,
// key lengths off the kernel's 64-key block, empty sequences, strided views,
// paged caches of both forms, very negative, very large and infinite sinks,
// and every rejection with its status.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <string>

#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr aclnnStatus kNotSupported = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;

// kLogKeys: log(keys) + U(-2, 2), so that the sink takes a large share of each
// row's softmax; kVeryNegative / kVeryLarge: -1e30 / 1e30 (the result without
// a sink / zeros); kExtremes: -inf, +inf, -1e30, 1e30, ... by head.
enum class Sink { kNone, kLogKeys, kVeryNegative, kVeryLarge, kExtremes };

struct TndSpec {
  bool ntd = false;  // NTD_TND: query, key and value [N, T, D]; the output [T, N, D] as for TND
  int64_t heads = 4, kv_heads = 4, head_dim = 64;
  std::vector<int64_t> q_lens, kv_lens;
  int64_t sparse = 0;  // 0 (no mask) or 3 (bottom-right causal)
  bool lse = true;
  bool strided = false;  // query, key and value rows padded in storage; the sink a stepped view
  Sink sink = Sink::kLogKeys;
  // Paged: the keys and values in shuffled blockSize-row blocks of one cache each, (blocks,
  // blockSize, KV_N * D) (cache_rank 3) or (blocks, KV_N, blockSize, D) (4); free slots hold NaN.
  int cache_rank = 0;
  int64_t block_size = 128;
  std::string name;
};

void PrintTo(const TndSpec& s, std::ostream* os) { *os << s.name; }

struct Result {
  Values out;
  Values lse;
};

// The sink of head n as the spec sets it (before bf16 rounding).
double SinkValue(const TndSpec& s, int64_t n, Rng& rng) {
  switch (s.sink) {
    case Sink::kNone:
      return 0;
    case Sink::kLogKeys:
      return std::log(static_cast<double>(MaxOf(s.kv_lens) + 1)) + rng.Uniform(-2, 2);
    case Sink::kVeryNegative:
      return -1e30;
    case Sink::kVeryLarge:
      return 1e30;
    case Sink::kExtremes: {
      const double extremes[] = {-kInf, kInf, -1e30, 1e30};
      return extremes[n % 4];
    }
  }
  return 0;
}

// (token, head, dim) of a [T, N, D] (or [N, T, D]) tensor in row-major order.
size_t TndIndex(bool ntd, int64_t tokens, int64_t heads, int64_t d, int64_t t, int64_t n, int64_t e) {
  return static_cast<size_t>(ntd ? (n * tokens + t) * d + e : (t * heads + n) * d + e);
}

// float64 attention over the stored values; `sinks` empty: none.
Result Reference(const TndSpec& s, const Values& q, const Values& k, const Values& v,
                 const std::vector<double>& sinks) {
  const int64_t d = s.head_dim, g = s.heads / s.kv_heads;
  const int64_t tq = std::accumulate(s.q_lens.begin(), s.q_lens.end(), int64_t{0});
  const int64_t tk = std::accumulate(s.kv_lens.begin(), s.kv_lens.end(), int64_t{0});
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  Result r;
  r.out.assign(static_cast<size_t>(tq * s.heads * d), 0.0);
  r.lse.assign(static_cast<size_t>(tq * s.heads), -kInf);
  int64_t q0 = 0, k0 = 0;
  for (size_t b = 0; b < s.q_lens.size(); ++b) {
    const int64_t q_len = s.q_lens[b], kv_len = s.kv_lens[b];
    for (int64_t n = 0; n < s.heads; ++n) {
      for (int64_t i = 0; i < q_len; ++i) {
        const int64_t last = s.sparse == 3 ? std::min(kv_len, i + kv_len - q_len + 1) : kv_len;
        std::vector<double> score(static_cast<size_t>(std::max<int64_t>(last, 0)));
        double max = -kInf;
        for (int64_t j = 0; j < last; ++j) {
          double dot = 0;
          for (int64_t e = 0; e < d; ++e) {
            dot += q[TndIndex(s.ntd, tq, s.heads, d, q0 + i, n, e)].real() *
                   k[TndIndex(s.ntd, tk, s.kv_heads, d, k0 + j, n / g, e)].real();
          }
          score[static_cast<size_t>(j)] = dot * scale;
          max = std::max(max, dot * scale);
        }
        if (last <= 0) continue;  // no key: zeros, LSE -inf
        double sum = 0;
        for (double& x : score) {
          x = std::exp(x - max);
          sum += x;
        }
        double denominator = sum;
        if (!sinks.empty()) {
          const double sink = sinks[static_cast<size_t>(n)];
          denominator = sink == kInf ? kInf : sum + std::exp(sink - max);
        }
        for (int64_t e = 0; e < d; ++e) {
          double acc = 0;
          for (int64_t j = 0; j < last; ++j) {
            acc += score[static_cast<size_t>(j)] * v[TndIndex(s.ntd, tk, s.kv_heads, d, k0 + j, n / g, e)].real();
          }
          r.out[static_cast<size_t>(((q0 + i) * s.heads + n) * d + e)] = acc / denominator;
        }
        r.lse[static_cast<size_t>((q0 + i) * s.heads + n)] = max + std::log(sum);
      }
    }
    q0 += q_len;
    k0 += kv_len;
  }
  return r;
}

// A [tokens, heads, d] (or [heads, tokens, d]) tensor, rows padded by 16 elements in storage when strided.
Layout TndLayout(bool ntd, int64_t tokens, int64_t heads, int64_t d, bool strided) {
  const Shape shape = ntd ? Shape{heads, tokens, d} : Shape{tokens, heads, d};
  Layout layout = MakeLayout(shape, View::kContiguous);
  if (strided) {
    const int64_t row = d + 16;
    layout.strides = {shape[1] * row, row, 1};
    layout.storageShape = {shape[0], shape[1], row};
  }
  return layout;
}

// Phase 1 of a V4 call.
aclnnStatus CallV4(OpArgs& a, uint64_t* w, aclOpExecutor** e, aclTensor* q, const std::vector<aclTensor*>& k,
                   const std::vector<aclTensor*>& v, aclTensor* pse, aclTensor* mask, const aclIntArray* aq,
                   const aclIntArray* akv, aclTensor* table, aclTensor* sink, int64_t heads, int64_t kv_heads,
                   double scale, const char* layout, int64_t sparse, bool lse_flag, aclTensor* out, aclTensor* lse,
                   int64_t block_size = 128) {
  char layout_name[16];
  std::snprintf(layout_name, sizeof layout_name, "%s", layout);
  return aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
      q, a.TensorList(k), a.TensorList(v), pse, mask, aq, akv, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, table, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, sink, heads, scale, 65535, 65535, layout_name, kv_heads, sparse, 0,
      table != nullptr ? block_size : 0, 0, lse_flag, 0, 0, 0, out, lse, w, e);
}

// The paged form of the dense keys and values (in the spec's layout): each batch's keys in
// blockSize-row blocks placed at shuffled positions of one cache (two spare blocks), the table
// [B, most blocks + 1] mapping them; slots no key fills hold NaN, which must not leak.
void MakeCaches(const TndSpec& s, Rng& rng, const Values& kv, const Values& vv, std::unique_ptr<DeviceTensor>& key,
                std::unique_ptr<DeviceTensor>& value, std::unique_ptr<DeviceTensor>& table) {
  const int64_t bs = s.block_size, d = s.head_dim, n2 = s.kv_heads;
  const int64_t tk = std::accumulate(s.kv_lens.begin(), s.kv_lens.end(), int64_t{0});
  const auto batch = static_cast<int64_t>(s.kv_lens.size());
  int64_t blocks = 2, most = 0;
  for (const int64_t length : s.kv_lens) {
    blocks += (length + bs - 1) / bs;
    most = std::max(most, (length + bs - 1) / bs);
  }
  std::vector<int64_t> position(static_cast<size_t>(blocks));
  std::iota(position.begin(), position.end(), 0);
  for (int64_t i = blocks - 1; i > 0; --i) {
    std::swap(position[static_cast<size_t>(i)], position[static_cast<size_t>(rng.Uniform(0, 1) * (i + 1)) % (i + 1)]);
  }
  const Shape shape = s.cache_rank == 3 ? Shape{blocks, bs, n2 * d} : Shape{blocks, n2, bs, d};
  Values kc(static_cast<size_t>(NumElements(shape)), std::numeric_limits<double>::quiet_NaN()), vc = kc;
  const int64_t columns = most + 1;
  std::vector<int64_t> entries(static_cast<size_t>(batch * columns), 0);
  int64_t next = 0, token = 0;
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t length = s.kv_lens[static_cast<size_t>(b)];
    int64_t* row_entries = entries.data() + b * columns;
    for (int64_t c = 0; c * bs < length; ++c) row_entries[c] = position[static_cast<size_t>(next++)];
    for (int64_t j = 0; j < length; ++j, ++token) {
      const int64_t block = row_entries[j / bs], row = j % bs;
      for (int64_t n = 0; n < n2; ++n) {
        for (int64_t e = 0; e < d; ++e) {
          const auto at = static_cast<size_t>(s.cache_rank == 3 ? (block * bs + row) * n2 * d + n * d + e
                                                                : ((block * n2 + n) * bs + row) * d + e);
          kc[at] = kv[TndIndex(s.ntd, tk, n2, d, token, n, e)];
          vc[at] = vv[TndIndex(s.ntd, tk, n2, d, token, n, e)];
        }
      }
    }
  }
  key = Upload(ACL_BF16, shape, kc);
  value = Upload(ACL_BF16, shape, vc);
  table = Upload(ACL_INT32, {batch, columns}, Values(entries.begin(), entries.end()));
}

void RunTndSpec(const TndSpec& s) {
  SCOPED_TRACE(s.name);
  Rng rng = Rng::ForCurrentTest();
  const int64_t d = s.head_dim;
  const int64_t tq = std::accumulate(s.q_lens.begin(), s.q_lens.end(), int64_t{0});
  const int64_t tk = std::accumulate(s.kv_lens.begin(), s.kv_lens.end(), int64_t{0});
  DeviceTensor query(ACL_BF16, TndLayout(s.ntd, tq, s.heads, d, s.strided));
  const Values qv = query.FillRandom(rng, Range{-1, 1});
  std::unique_ptr<DeviceTensor> key, value, table;
  Values kv, vv;
  if (s.cache_rank == 0) {
    key = std::make_unique<DeviceTensor>(ACL_BF16, TndLayout(s.ntd, tk, s.kv_heads, d, s.strided));
    value = std::make_unique<DeviceTensor>(ACL_BF16, TndLayout(s.ntd, tk, s.kv_heads, d, s.strided));
    kv = key->FillRandom(rng, Range{-1, 1});
    // Values off zero on average, so that the sink's share of a row moves the output well past the tolerance.
    vv = value->FillRandom(rng, Range{-1, 2});
  } else {
    kv = RandomValues(rng, ACL_BF16, tk * s.kv_heads * d, Range{-1, 1});
    vv = RandomValues(rng, ACL_BF16, tk * s.kv_heads * d, Range{-1, 2});
    MakeCaches(s, rng, kv, vv, key, value, table);
  }
  std::unique_ptr<DeviceTensor> sink;
  std::vector<double> sinks;
  if (s.sink != Sink::kNone) {
    Values host;
    for (int64_t n = 0; n < s.heads; ++n) host.push_back(ConvertValue(SinkValue(s, n, rng), ACL_BF16));
    if (s.strided) {  // every other element of a [2N] buffer
      Layout layout = MakeLayout({s.heads}, View::kContiguous);
      layout.strides = {2};
      layout.storageShape = {2 * s.heads};
      sink = std::make_unique<DeviceTensor>(ACL_BF16, layout);
      sink->Poison();
      sink->WriteView(host);
    } else {
      sink = Upload(ACL_BF16, {s.heads}, host);
    }
    for (const Value& x : host) sinks.push_back(x.real());
  }
  std::unique_ptr<DeviceTensor> mask;
  if (s.sparse == 3) {
    mask = std::make_unique<DeviceTensor>(ACL_BOOL, Shape{2048, 2048});
    Values bits(2048 * 2048);
    for (size_t i = 0; i < bits.size(); ++i) bits[i] = (i % 2048) > (i / 2048) ? 1.0 : 0.0;
    mask->WriteView(bits);
  }
  DeviceTensor out(ACL_BF16, {tq, s.heads, d});
  out.Poison();
  DeviceTensor lse(ACL_FLOAT, {tq, s.heads, 1});
  lse.Poison();
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return CallV4(a, w, e, a.Tensor(query), {a.Tensor(*key)}, {a.Tensor(*value)}, nullptr,
                      mask ? a.Tensor(*mask) : nullptr, a.IntArray(PrefixSums(s.q_lens)),
                      a.IntArray(table ? s.kv_lens : PrefixSums(s.kv_lens)), table ? a.Tensor(*table) : nullptr,
                      sink ? a.Tensor(*sink) : nullptr, s.heads, s.kv_heads, scale, s.ntd ? "NTD_TND" : "TND", s.sparse,
                      s.lse, a.Tensor(out), s.lse ? a.Tensor(lse) : nullptr, s.block_size);
      },
      aclnnFusedInferAttentionScoreV4);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Result want = Reference(s, qv, kv, vv, sinks);
  // A convex combination (weights summing to at most 1) of values in [-1, 2].
  const Expected tolerance = RelativeTolerance(want.out, ACL_BF16, 3, std::vector<double>(want.out.size(), 2.0));
  ExpectNear(out.ReadView(), tolerance, "attentionOut");
  if (s.sink == Sink::kLogKeys) {  // the test can fail: ignoring the sink is far outside the tolerance
    const Result without = Reference(s, qv, kv, vv, {});
    double worst = 0;
    for (size_t i = 0; i < want.out.size(); ++i) {
      worst = std::max(worst, std::abs(want.out[i].real() - without.out[i].real()) / tolerance.tolerance[i]);
    }
    EXPECT_GT(worst, 20.0) << "the sink hardly moves the reference";
  }
  if (s.lse)
    ExpectNear(lse.ReadView(), RelativeTolerance(want.lse, ACL_FLOAT, 64, std::vector<double>(want.lse.size(), 8.0)),
               "softmaxLse");
}

class TndSinkTest : public ::testing::TestWithParam<TndSpec> {};

TEST_P(TndSinkTest, MatchesTheFloat64Reference) { RunTndSpec(GetParam()); }

std::vector<TndSpec> TndSpecs() {
  std::vector<TndSpec> specs;
  const auto add = [&](TndSpec s) { specs.push_back(std::move(s)); };
  // Prefill, no GQA, key lengths off the 64-key block, one sequence without keys.
  add({.q_lens = {5, 1, 17, 3}, .kv_lens = {70, 9, 130, 0}, .name = "tnd_mha_d64_prefill"});
  // Decode (one row per sequence), GQA 4, D 128.
  add({.heads = 8,
       .kv_heads = 2,
       .head_dim = 128,
       .q_lens = {1, 1, 1},
       .kv_lens = {65, 200, 3},
       .name = "tnd_gqa4_d128_decode"});
  // Causal from the bottom right, GQA 4, an empty query sequence.
  add({.heads = 8,
       .kv_heads = 2,
       .q_lens = {3, 20, 0, 6},
       .kv_lens = {70, 20, 5, 6},
       .sparse = 3,
       .name = "tnd_gqa4_causal"});
  // NTD_TND (query, key, value head-major; the output token-major).
  add({.ntd = true,
       .head_dim = 128,
       .q_lens = {7, 2},
       .kv_lens = {100, 64},
       .sparse = 3,
       .name = "ntd_tnd_causal_d128"});
  add({.ntd = true, .heads = 8, .kv_heads = 2, .q_lens = {1, 1}, .kv_lens = {31, 129}, .name = "ntd_tnd_gqa4_decode"});
  // Strided query, key, value and sink.
  add({.heads = 8, .kv_heads = 2, .q_lens = {4, 9}, .kv_lens = {33, 129}, .strided = true, .name = "tnd_strided"});
  add({.ntd = true, .q_lens = {1, 1}, .kv_lens = {33, 64}, .strided = true, .name = "ntd_tnd_strided_decode"});
  // More rows than the kernel's query block (64 per head) in one sequence.
  add({.heads = 2, .kv_heads = 1, .q_lens = {70, 2}, .kv_lens = {90, 3}, .sparse = 3, .name = "tnd_long_causal"});
  // Sinks that change nothing, that take the whole row, and infinite ones.
  add({.heads = 8,
       .kv_heads = 2,
       .q_lens = {3, 1},
       .kv_lens = {70, 5},
       .sink = Sink::kVeryNegative,
       .name = "very_negative_sinks"});
  add({.heads = 8,
       .kv_heads = 2,
       .q_lens = {3, 1},
       .kv_lens = {70, 5},
       .sink = Sink::kVeryLarge,
       .name = "very_large_sinks"});
  add({.heads = 8,
       .kv_heads = 2,
       .q_lens = {3, 1},
       .kv_lens = {70, 5},
       .sink = Sink::kExtremes,
       .name = "infinite_sinks"});
  add({.q_lens = {1, 1}, .kv_lens = {70, 5}, .sink = Sink::kExtremes, .name = "infinite_sinks_decode"});
  // The variable-length layouts without sinks, D 192 included, and without the LSE.
  add({.heads = 4,
       .kv_heads = 2,
       .q_lens = {6, 1, 12},
       .kv_lens = {6, 80, 12},
       .sparse = 3,
       .sink = Sink::kNone,
       .name = "tnd_no_sink_causal"});
  add({.head_dim = 192,
       .q_lens = {2, 5},
       .kv_lens = {66, 5},
       .lse = false,
       .sink = Sink::kNone,
       .name = "tnd_no_sink_d192"});
  add({.q_lens = {2, 5}, .kv_lens = {66, 5}, .lse = false, .name = "tnd_sink_without_lse"});
  // Paged caches (key lengths per batch, not cumulative), both cache forms, blocks of 128 and 256.
  add({.heads = 8,
       .kv_heads = 2,
       .q_lens = {1, 1, 1},
       .kv_lens = {300, 5, 129},
       .cache_rank = 3,
       .name = "paged_bbh_decode"});
  add({.head_dim = 128,
       .q_lens = {4, 9},
       .kv_lens = {130, 9},
       .sparse = 3,
       .cache_rank = 4,
       .name = "paged_bnbd_causal"});
  add({.ntd = true,
       .heads = 8,
       .kv_heads = 2,
       .q_lens = {3, 2},
       .kv_lens = {70, 400},
       .cache_rank = 3,
       .block_size = 256,
       .name = "ntd_tnd_paged_bbh_256"});
  add({.q_lens = {2, 1}, .kv_lens = {200, 0}, .sink = Sink::kNone, .cache_rank = 4, .name = "paged_no_sink"});
  return specs;
}

INSTANTIATE_TEST_SUITE_P(FusedInferAttentionScoreV4, TndSinkTest, ::testing::ValuesIn(TndSpecs()),
                         [](const ::testing::TestParamInfo<TndSpec>& info) { return info.param.name; });

// Every sequence empty (T = 0): nothing to compute.
TEST(TndSink, EmptyQueryRuns) {
  ExpectRuns(
      [](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return CallV4(a, w, e, a.NewTensor(ACL_BF16, {0, 4, 64}), {a.NewTensor(ACL_BF16, {10, 4, 64})},
                      {a.NewTensor(ACL_BF16, {10, 4, 64})}, nullptr, nullptr, a.IntArray({0, 0}), a.IntArray({4, 10}),
                      nullptr, a.NewTensor(ACL_BF16, {4}), 4, 4, 0.125, "TND", 0, true,
                      a.NewTensor(ACL_BF16, {0, 4, 64}), a.NewTensor(ACL_FLOAT, {0, 4, 1}));
      },
      aclnnFusedInferAttentionScoreV4);
}

// V2 (no sink argument) takes the variable-length layouts as V4 does.
TEST(TndSink, V2TakesTnd) {
  char layout[] = "TND";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
            a.NewTensor(ACL_BF16, {6, 4, 64}), a.TensorList({a.NewTensor(ACL_BF16, {10, 2, 64})}),
            a.TensorList({a.NewTensor(ACL_BF16, {10, 2, 64})}), nullptr, nullptr, a.IntArray({2, 6}),
            a.IntArray({4, 10}), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.125, 65535, 65535, layout, 2,
            0, 0, 0, 0, false, 0, 0, a.NewTensor(ACL_BF16, {6, 4, 64}), nullptr, w, e);
      },
      aclnnFusedInferAttentionScoreV2);
}

// A valid TND call with a sink (bf16, T 6 in sequences of 2 and 4, keys 4 and 6, N 4, KV_N 2, D 64), one edit at a
// time.
struct TndCall {
  const char* layout = "TND";
  aclDataType dtype = ACL_BF16, sink_dtype = ACL_BF16;
  Shape q = {6, 4, 64}, k = {10, 2, 64}, v = {10, 2, 64}, out = {6, 4, 64}, lse = {6, 4, 1};
  Shape sink = {4};
  bool has_sink = true, two_keys = false, pse = false, table = false, lse_flag = true;
  int64_t heads = 4, kv_heads = 2, sparse = 0, block_size = 128;
  Shape table_shape = {2, 1};
  Shape mask;  // empty: none
  std::vector<int64_t> aq = {2, 6}, akv = {4, 10};
  bool null_aq = false;
};

OpRun RunTnd(const TndCall& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        std::vector<aclTensor*> k = {a.NewTensor(c.dtype, c.k)}, v = {a.NewTensor(c.dtype, c.v)};
        if (c.two_keys) {
          k.push_back(a.NewTensor(c.dtype, c.k));
          v.push_back(a.NewTensor(c.dtype, c.v));
        }
        aclTensor* table = c.table ? a.NewTensorIn(Range{0, 0, 0, 0, true}, ACL_INT32, c.table_shape) : nullptr;
        return CallV4(a, w, e, a.NewTensor(c.dtype, c.q), k, v, c.pse ? a.NewTensor(c.dtype, {1, 4, 6, 10}) : nullptr,
                      c.mask.empty() ? nullptr : a.NewTensorIn(Range{0, 0, 0, 0, true}, ACL_BOOL, c.mask),
                      c.null_aq ? nullptr : a.IntArray(c.aq), a.IntArray(c.akv), table,
                      c.has_sink ? a.NewTensor(c.sink_dtype, c.sink) : nullptr, c.heads, c.kv_heads, 0.125, c.layout,
                      c.sparse, c.lse_flag, a.NewTensor(c.dtype, c.out), a.NewTensor(ACL_FLOAT, c.lse), c.block_size);
      },
      aclnnFusedInferAttentionScoreV4);
}

TndCall TndWith(const std::function<void(TndCall&)>& edit) {
  TndCall c;
  edit(c);
  return c;
}

TEST(TndSinkRejects, TheValidCallsRun) {
  EXPECT_TRUE(RunTnd(TndCall{}).ok()) << Describe(RunTnd(TndCall{}));
  const OpRun ntd = RunTnd(TndWith([](TndCall& c) {
    c.layout = "NTD_TND";
    c.q = {4, 6, 64};
    c.k = c.v = {2, 10, 64};
  }));
  EXPECT_TRUE(ntd.ok()) << Describe(ntd);
  const OpRun causal = RunTnd(TndWith([](TndCall& c) {
    c.sparse = 3;
    c.mask = {2048, 2048};
  }));
  EXPECT_TRUE(causal.ok()) << Describe(causal);
}

TEST(TndSinkRejects, Sinks) {
  // Other layouts: CANN's A2 tiling takes sinks with TND / NTD_TND only.
  for (const char* layout : {"BSND", "BNSD", "BSH"}) {
    const OpRun run = RunTnd(TndWith([&](TndCall& c) {
      c.layout = layout;
      const bool bsh = std::string(layout) == "BSH";
      c.q = c.out = bsh ? Shape{2, 3, 256} : Shape{2, 3, 4, 64};
      c.k = c.v = bsh ? Shape{2, 5, 128} : Shape{2, 5, 2, 64};
      if (std::string(layout) == "BNSD") {
        c.q = c.out = {2, 4, 3, 64};
        c.k = c.v = {2, 2, 5, 64};
      }
      c.lse = {2, 4, 3, 1};
      c.aq = {3};
      c.akv = {5};
    }));
    ExpectRejectedWith(run, kTiling, {"learnableSinkOptional", "TND"});
  }
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.sink_dtype = ACL_FLOAT16; })), kInvalid,
                     {"learnableSinkOptional"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.sink_dtype = ACL_FLOAT; })), kInvalid,
                     {"learnableSinkOptional"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.sink = {5}; })), kTiling, {"learnableSinkOptional"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.sink = {1, 4}; })), kTiling, {"learnableSinkOptional"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) {
                       c.q = c.out = {6, 4, 192};
                       c.k = c.v = {10, 4, 192};
                       c.kv_heads = 4;
                     })),
                     kTiling, {"learnableSinkOptional", "64 or 128"});
  // An empty sink is none, as in CANN's tiling: any layout runs.
  const OpRun empty = RunTnd(TndWith([](TndCall& c) {
    c.sink = {0};
    c.q = c.out = {6, 4, 192};
    c.k = c.v = {10, 4, 192};
    c.kv_heads = 4;
  }));
  EXPECT_TRUE(empty.ok()) << Describe(empty);
}

TEST(TndSinkRejects, Layouts) {
  // bf16 only.
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.dtype = ACL_FLOAT16; })), kTiling, {"'query'", "BFLOAT16"});
  // One key / value tensor, no pse, no paged cache (Canopy).
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.two_keys = true; })), kTiling, {"'key'", "one"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.pse = true; })), kTiling, {"pseShiftOptional"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.k = {10, 2, 32}; })), kTiling, {"D"});
  // Ranks, heads, D.
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.q = {1, 6, 4, 64}; })), kTiling, {"'query'", "rank"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.heads = 8; })), kTiling, {"numHeads"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.kv_heads = 4; })), kTiling, {"numKeyValueHeads"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) {
                       c.q = c.out = {6, 4, 96};
                       c.k = c.v = {10, 2, 96};
                       c.has_sink = false;
                     })),
                     kTiling, {"D"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) {
                       c.q = c.out = {6, 4, 192};
                       c.k = c.v = {10, 2, 192};
                       c.has_sink = false;
                     })),
                     kTiling, {"192"});  // 192 with grouped heads
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) {
                       c.layout = "NTD_TND";
                       c.q = {4, 6, 192};
                       c.out = {6, 4, 192};
                       c.k = c.v = {4, 10, 192};
                       c.kv_heads = 4;
                       c.has_sink = false;
                     })),
                     kTiling, {"192"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) {
                       c.q = {6, 4, 192};
                       c.out = {6, 4, 128};
                       c.k = {10, 4, 192};
                       c.v = {10, 4, 128};
                       c.kv_heads = 4;
                       c.has_sink = false;
                     })),
                     kNotSupported, {"'value'", "not supported"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.out = {6, 4, 32}; })), kInvalid, {"attentionOut"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.lse = {1, 4, 6, 1}; })), kInvalid, {"softmaxLse"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.layout = "TH"; })), kInvalid, {"inputLayout", "TND"});
}

// Paged: key lengths per batch (not cumulative), blockSize a multiple of 128 up to 1024, caches
// (blocks, blockSize, H) or (blocks, KV_N, blockSize, D) with the blocks the lengths need.
TEST(TndSinkRejects, Paged) {
  const auto paged = [](const std::function<void(TndCall&)>& edit) {
    return TndWith([&](TndCall& c) {
      c.table = true;
      c.k = c.v = {2, 128, 128};
      c.akv = {10, 4};  // lengths, not ends: decreasing is fine
      edit(c);
    });
  };
  const OpRun valid = RunTnd(paged([](TndCall&) {}));
  EXPECT_TRUE(valid.ok()) << Describe(valid);
  const OpRun heads_major = RunTnd(paged([](TndCall& c) { c.k = c.v = {2, 2, 128, 64}; }));
  EXPECT_TRUE(heads_major.ok()) << Describe(heads_major);
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) { c.k = c.v = {1, 128, 128}; })), kTiling, {"at least 2 blocks"});
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) { c.k = c.v = {2, 64, 128}; })), kTiling, {"blocks"});
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) { c.v = {2, 2, 128, 64}; })), kTiling, {"blocks"});
  for (int64_t size : {64, 192, 2048}) {
    ExpectRejectedWith(RunTnd(paged([&](TndCall& c) {
                         c.block_size = size;
                         c.k = c.v = {2, size, 128};
                       })),
                       kTiling, {"blockSize"});
  }
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) { c.table_shape = {1, 1}; })), kTiling, {"blockTableOptional"});
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) { c.table_shape = {2}; })), kTiling, {"blockTableOptional"});
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) {
                       c.akv = {200, 4};  // two blocks for batch 0
                       c.k = c.v = {3, 128, 128};
                     })),
                     kTiling, {"blockTableOptional", ">= 2"});
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) { c.akv = {-1, 4}; })), kTiling, {"negative"});
  // A length no cache holds: the blocks it needs are counted without overflow
  // (an adversarial pass: 128 + INT64_MAX wrapped, the checks passed, and the
  // run read far past the table and the cache).
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) {
                       c.akv = {128, std::numeric_limits<int64_t>::max()};
                     })),
                     kTiling, {"blocks"});
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) {
                       c.q = c.out = {6, 4, 192};
                       c.k = c.v = {2, 128, 768};
                       c.kv_heads = 4;
                       c.has_sink = false;
                     })),
                     kTiling, {"192"});
  ExpectRejectedWith(RunTnd(paged([](TndCall& c) {
                       c.sparse = 4, c.mask = {2048, 2048};
                     })),
                     kNotSupported, {"sparseMode"});
}

TEST(TndSinkRejects, Lengths) {
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.null_aq = true; })), kTiling, {"actualSeqLengthsOptional"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.aq = {}; })), kTiling, {"actualSeqLengthsOptional"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.aq = {6}; })), kTiling, {"as many"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.aq = {4, 2}; })), kTiling, {"decreasing"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.akv = {-1, 10}; })), kTiling, {"negative"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.aq = {2, 5}; })), kTiling, {"T = 6"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.akv = {4, 9}; })), kTiling, {"'actualSeqLengthsKvOptional'"});
}

TEST(TndSinkRejects, SparseModes) {
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.mask = {6, 10}; })), kTiling, {"sparseMode", "mask"});
  for (int64_t mode : {1, 2, 5}) {
    ExpectRejectedWith(RunTnd(TndWith([&](TndCall& c) {
                         c.sparse = mode;
                         c.mask = {2048, 2048};
                       })),
                       kTiling, {"sparseMode"});
  }
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) {
                       c.sparse = 4;
                       c.mask = {2048, 2048};
                     })),
                     kNotSupported, {"sparseMode", "not supported"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) { c.sparse = 3; })), kInvalid, {"2048"});
  ExpectRejectedWith(RunTnd(TndWith([](TndCall& c) {
                       c.sparse = 3;
                       c.mask = {2048, 2048};
                       c.akv = {1, 10};  // batch 0: 2 rows, 1 key
                     })),
                     kTiling, {"sparse mode 3"});
}

}  // namespace
}  // namespace canopy_test
