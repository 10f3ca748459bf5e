// aclnnFlashAttentionVarLenScore, V2, V3 and V4 (the TND layout: sequences of
// different lengths packed along T, cumulative lengths) and
// aclnnFlashAttentionScoreV2 (pseType) against a float64 softmax(scores, masked) V
// computed per sequence: f16, bf16 and f32, GQA, a smaller value D, empty
// sequences, rows past the last length, pse shapes and both pse types, masks with
// sparse modes 0-3, the rope parts of V3, both softmax layouts of V4, strided
// views; FlashAttentionScoreV2 with pseType 1 bit for bit against its sibling
// FlashAttentionScore. Every rejection with its status.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "aclnnop/aclnn_flash_attention_score.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kCopies = 8;
constexpr aclnnStatus kNullptr = ACLNN_ERR_PARAM_NULLPTR;
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kNotSupported = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;

enum class Version { kScoreV2, kVarLen, kVarLenV2, kVarLenV3, kVarLenV4 };
enum class Pse { kNone, kFull, kRow, kBatchOne };                    // [B,N,Sq,Skv], [B,N,1,Skv], [1,N,Sq,Skv]
enum class Mask { kNone, kSquare, kBatched, kPerHead, kOptimised };  // [Sq,Skv], [B,1,..], [B,N,..], [2048,2048]

struct VarSpec {
  std::string name;
  Version version = Version::kVarLen;
  aclDataType dtype = ACL_FLOAT16;
  int64_t heads = 4, kv_heads = 2, d = 32, dv = 32, rope_d = 0;
  // Per sequence (kScoreV2: all alike, the BSND layout, which packs as TND does).
  std::vector<int64_t> q_lens = {5, 0, 9}, kv_lens = {7, 4, 12};
  int64_t tail = 0;  // query rows past the last query length
  Pse pse = Pse::kNone;
  int64_t pse_type = 1;
  Mask mask = Mask::kNone;
  int64_t sparse = 0, pre = 65536, next = 65536;
  bool stats_tnd = false;  // [T, N, 8]: V4's "same_as_input" (V1 with one head, as CANN's example)
  View view = View::kContiguous;
};

void PrintTo(const VarSpec& s, std::ostream* os) { *os << s.name; }

struct Want {
  Values out, max, sum;  // out [T, N, Dv]; max and sum per (row, head), in the op's stats order
};

// The float64 reference, sequence by sequence; q and out are [T, N, *] row-major.
Want Reference(const VarSpec& s, const Values& q, const Values& qr, const Values& k, const Values& kr, const Values& v,
               const Values& p, const Shape& ps, const std::vector<uint8_t>& bits, const Shape& ms) {
  const int64_t n_q = s.heads, n_kv = s.kv_heads, g = n_q / n_kv, batch = static_cast<int64_t>(s.q_lens.size());
  const int64_t t_q = std::accumulate(s.q_lens.begin(), s.q_lens.end(), int64_t{0}) + s.tail;
  const double scale = 1.0 / std::sqrt(static_cast<double>(s.d + s.rope_d));
  Want w;
  w.out.assign(static_cast<size_t>(t_q * n_q * s.dv), 0.0);
  std::vector<double> max(static_cast<size_t>(t_q * n_q), -kInf), sum(static_cast<size_t>(t_q * n_q), 0.0);
  int64_t q0 = 0, k0 = 0;
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t sq = s.q_lens[static_cast<size_t>(b)], skv = s.kv_lens[static_cast<size_t>(b)];
    for (int64_t n = 0; n < n_q; ++n) {
      for (int64_t i = 0; i < sq; ++i) {
        std::vector<double> score(static_cast<size_t>(skv), -kInf);
        double m = -kInf;
        for (int64_t j = 0; j < skv; ++j) {
          bool keep = true;
          if (s.mask != Mask::kNone) {
            if (s.sparse == 0) keep = j >= i - s.pre && j <= i + s.next;
            if (s.sparse == 2) keep = j <= i;
            if (s.sparse == 3) keep = j <= i + skv - sq;
            if (s.mask != Mask::kOptimised) {
              const int64_t rows = ms[ms.size() - 2], cols = ms.back();
              int64_t at = i * cols + j;
              if (s.mask == Mask::kBatched) at += b * rows * cols;
              if (s.mask == Mask::kPerHead) at += (b * n_q + n) * rows * cols;
              if (bits[static_cast<size_t>(at)] != 0) keep = false;
            }
          }
          if (!keep) continue;
          double dot = 0;
          for (int64_t e = 0; e < s.d; ++e) {
            dot += q[static_cast<size_t>(((q0 + i) * n_q + n) * s.d + e)].real() *
                   k[static_cast<size_t>(((k0 + j) * n_kv + n / g) * s.d + e)].real();
          }
          for (int64_t e = 0; e < s.rope_d; ++e) {
            dot += qr[static_cast<size_t>(((q0 + i) * n_q + n) * s.rope_d + e)].real() *
                   kr[static_cast<size_t>(((k0 + j) * n_kv + n / g) * s.rope_d + e)].real();
          }
          double x = scale * dot;
          if (s.pse != Pse::kNone) {
            const double shift =
                p[static_cast<size_t>((((ps[0] == 1 ? 0 : b) * n_q + n) * ps[2] + (ps[2] == 1 ? 0 : i)) * ps[3] + j)]
                    .real();
            x = s.pse_type == 1 ? scale * (dot + shift) : x + shift;
          }
          score[static_cast<size_t>(j)] = x;
          m = std::max(m, x);
        }
        double total = 0;
        for (double& x : score) {
          x = x == -kInf ? 0.0 : std::exp(x - m);
          total += x;
        }
        for (int64_t e = 0; e < s.dv && total > 0; ++e) {
          double acc = 0;
          for (int64_t j = 0; j < skv; ++j) {
            acc += score[static_cast<size_t>(j)] * v[static_cast<size_t>(((k0 + j) * n_kv + n / g) * s.dv + e)].real();
          }
          w.out[static_cast<size_t>(((q0 + i) * n_q + n) * s.dv + e)] = acc / total;
        }
        max[static_cast<size_t>((q0 + i) * n_q + n)] = m;
        sum[static_cast<size_t>((q0 + i) * n_q + n)] = total;
      }
    }
    q0 += sq;
    k0 += skv;
  }
  // The op's stats order: [B, N, S, 8] (ScoreV2), [T, N, 8] or [N, T, 8].
  const int64_t s_len = s.q_lens[0];
  for (int64_t a = 0; a < t_q * n_q; ++a) {
    int64_t t = 0, n = 0;
    if (s.version == Version::kScoreV2) {
      const int64_t bn = a / s_len;
      n = bn % n_q;
      t = bn / n_q * s_len + a % s_len;
    } else if (s.stats_tnd) {
      t = a / n_q, n = a % n_q;
    } else {
      n = a / t_q, t = a % t_q;
    }
    for (int64_t c = 0; c < kCopies; ++c) {
      w.max.push_back(max[static_cast<size_t>(t * n_q + n)]);
      w.sum.push_back(sum[static_cast<size_t>(t * n_q + n)]);
    }
  }
  return w;
}

void RunVarSpec(const VarSpec& s) {
  Rng rng = Rng::ForCurrentTest();
  const auto batch = static_cast<int64_t>(s.q_lens.size());
  const int64_t t_q = std::accumulate(s.q_lens.begin(), s.q_lens.end(), int64_t{0}) + s.tail;
  const int64_t t_kv = std::accumulate(s.kv_lens.begin(), s.kv_lens.end(), int64_t{0});
  const int64_t max_q = MaxOf(s.q_lens), max_kv = MaxOf(s.kv_lens);
  const bool dense = s.version == Version::kScoreV2;
  // ScoreV2 runs BSND: [B, S, N, D] holds the same elements as TND [B * S, N, D].
  const auto shape = [&](int64_t t, int64_t n, int64_t d) {
    return dense ? Shape{batch, t / batch, n, d} : Shape{t, n, d};
  };
  DeviceTensor query(s.dtype, shape(t_q, s.heads, s.d), s.view), key(s.dtype, shape(t_kv, s.kv_heads, s.d), s.view);
  DeviceTensor value(s.dtype, shape(t_kv, s.kv_heads, s.dv));
  const Values qv = query.FillRandom(rng, Range{-1, 1}), kv = key.FillRandom(rng, Range{-1, 1}),
               vv = value.FillRandom(rng, Range{-2, 2});
  std::unique_ptr<DeviceTensor> q_rope, k_rope, pse, mask;
  Values qrv, krv, pv;
  if (s.rope_d > 0) {
    q_rope = std::make_unique<DeviceTensor>(s.dtype, Shape{t_q, s.heads, s.rope_d});
    k_rope = std::make_unique<DeviceTensor>(s.dtype, Shape{t_kv, s.kv_heads, s.rope_d}, View::kStepped);
    qrv = q_rope->FillRandom(rng, Range{-1, 1});
    krv = k_rope->FillRandom(rng, Range{-1, 1});
  }
  Shape ps, ms;
  if (s.pse != Pse::kNone) {
    ps = {s.pse == Pse::kBatchOne ? 1 : batch, s.heads, s.pse == Pse::kRow ? 1 : max_q, max_kv};
    pse = std::make_unique<DeviceTensor>(s.dtype, ps);
    pv = pse->FillRandom(rng, Range{-2, 2});
  }
  std::vector<uint8_t> bits;
  if (s.mask != Mask::kNone) {
    if (s.mask == Mask::kSquare) ms = {max_q, max_kv};
    if (s.mask == Mask::kBatched) ms = {batch, 1, max_q, max_kv};
    if (s.mask == Mask::kPerHead) ms = {batch, s.heads, max_q, max_kv};
    if (s.mask == Mask::kOptimised) ms = {2048, 2048};
    mask = std::make_unique<DeviceTensor>(ACL_UINT8, ms);
    Values m(static_cast<size_t>(NumElements(ms)), 0.0);
    if (s.mask != Mask::kOptimised) {  // the optimised mask's contents are implied by the mode
      for (Value& x : m) x = rng.Uniform(0, 1) < 0.3 ? 1.0 : 0.0;
    }
    mask->WriteView(m);
    for (const Value& x : m) bits.push_back(x.real() != 0 ? 1 : 0);
  }
  DeviceTensor out(s.dtype, shape(t_q, s.heads, s.dv));
  const Shape stats = dense ? Shape{batch, s.heads, t_q / batch, kCopies}
                            : (s.stats_tnd ? Shape{t_q, s.heads, kCopies} : Shape{s.heads, t_q, kCopies});
  DeviceTensor max_out(ACL_FLOAT, stats), sum_out(ACL_FLOAT, stats);
  out.Poison();
  max_out.Poison();
  sum_out.Poison();
  char layout[8];
  std::snprintf(layout, sizeof layout, "%s", dense ? "BSND" : "TND");
  char stats_layout[16];
  std::snprintf(stats_layout, sizeof stats_layout, "%s", s.stats_tnd ? "same_as_input" : "");
  const double scale = 1.0 / std::sqrt(static_cast<double>(s.d + s.rope_d));
  const std::vector<int64_t> q_ends = PrefixSums(s.q_lens), kv_ends = PrefixSums(s.kv_lens);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclTensor* p = pse ? a.Tensor(*pse) : nullptr;
        aclTensor* m = mask ? a.Tensor(*mask) : nullptr;
        aclIntArray *ql = a.IntArray(q_ends), *kl = a.IntArray(kv_ends), *zero = a.IntArray({0});
        switch (s.version) {
          case Version::kScoreV2:
            return aclnnFlashAttentionScoreV2GetWorkspaceSize(
                a.Tensor(query), a.Tensor(key), a.Tensor(value), p, nullptr, nullptr, m, nullptr, zero, zero, scale,
                1.0, s.pre, s.next, s.heads, layout, 0, s.sparse, s.pse_type, a.Tensor(max_out), a.Tensor(sum_out),
                nullptr, a.Tensor(out), w, e);
          case Version::kVarLen:
            return aclnnFlashAttentionVarLenScoreGetWorkspaceSize(
                a.Tensor(query), a.Tensor(key), a.Tensor(value), p, nullptr, nullptr, m, a.IntArray({0}), ql, kl, scale,
                1.0, s.pre, s.next, s.heads, layout, 0, s.sparse, a.Tensor(max_out), a.Tensor(sum_out), nullptr,
                a.Tensor(out), w, e);
          case Version::kVarLenV2:
            return aclnnFlashAttentionVarLenScoreV2GetWorkspaceSize(
                a.Tensor(query), a.Tensor(key), a.Tensor(value), p, nullptr, nullptr, m, nullptr, ql, kl, zero, zero,
                scale, 1.0, s.pre, s.next, s.heads, layout, 0, s.sparse, s.pse_type, a.Tensor(max_out),
                a.Tensor(sum_out), nullptr, a.Tensor(out), w, e);
          case Version::kVarLenV3:
            return aclnnFlashAttentionVarLenScoreV3GetWorkspaceSize(
                a.Tensor(query), a.Tensor(*q_rope), a.Tensor(key), a.Tensor(*k_rope), a.Tensor(value), p, nullptr,
                nullptr, m, nullptr, ql, kl, nullptr, nullptr, scale, 1.0, s.pre, s.next, s.heads, layout, 0, s.sparse,
                s.pse_type, a.Tensor(max_out), a.Tensor(sum_out), nullptr, a.Tensor(out), w, e);
          case Version::kVarLenV4:
            break;
        }
        return aclnnFlashAttentionVarLenScoreV4GetWorkspaceSize(
            a.Tensor(query), a.Tensor(key), a.Tensor(value), p, nullptr, nullptr, m, nullptr, ql, kl, scale, 1.0, s.pre,
            s.next, s.heads, layout, 0, s.sparse, stats_layout, a.Tensor(max_out), a.Tensor(sum_out), nullptr,
            a.Tensor(out), w, e);
      },
      s.version == Version::kScoreV2    ? aclnnFlashAttentionScoreV2
      : s.version == Version::kVarLen   ? aclnnFlashAttentionVarLenScore
      : s.version == Version::kVarLenV2 ? aclnnFlashAttentionVarLenScoreV2
      : s.version == Version::kVarLenV3 ? aclnnFlashAttentionVarLenScoreV3
                                        : aclnnFlashAttentionVarLenScoreV4);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Want want = Reference(s, qv, qrv, kv, krv, vv, pv, ps, bits, ms);
  ExpectNear(out.ReadView(), RelativeTolerance(want.out, s.dtype, 3, std::vector<double>(want.out.size(), 2.0)),
             "attentionOutOut");
  ExpectSoftmaxStats(max_out, sum_out, want.max, want.sum);
}

std::vector<VarSpec> VarSpecs() {
  std::vector<VarSpec> specs;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    for (Version version : {Version::kVarLen, Version::kVarLenV2, Version::kVarLenV4}) {
      VarSpec f;
      f.dtype = dtype;
      f.version = version;
      f.stats_tnd = version == Version::kVarLenV4;
      f.name = std::string(Name(dtype)) + "_v" + std::to_string(static_cast<int>(version)) + "_gqa2";
      specs.push_back(f);
    }
  }
  const auto with = [](Pse pse, Mask mask, int64_t sparse, const std::string& name) {
    VarSpec f;
    f.q_lens = {6, 11, 3};
    f.kv_lens = {9, 11, 0};
    f.d = 16;
    f.dv = 16;
    f.pse = pse;
    f.mask = mask;
    f.sparse = sparse;
    f.name = name;
    return f;
  };
  specs.push_back(with(Pse::kFull, Mask::kNone, 0, "pse_full_empty_kv"));
  specs.push_back(with(Pse::kRow, Mask::kNone, 2, "pse_row_no_mask_ignores_sparse"));
  specs.push_back(with(Pse::kBatchOne, Mask::kSquare, 0, "pse_batch1_mask_square"));
  specs.push_back(with(Pse::kNone, Mask::kBatched, 1, "mask_batched_sparse1"));
  specs.push_back(with(Pse::kNone, Mask::kPerHead, 0, "mask_per_head"));
  VarSpec band = with(Pse::kNone, Mask::kSquare, 0, "mask_band_pre3_next1");
  band.pre = 3;
  band.next = 1;
  specs.push_back(band);
  specs.push_back(with(Pse::kNone, Mask::kOptimised, 2, "sparse2_causal"));
  VarSpec right_down = with(Pse::kFull, Mask::kOptimised, 3, "sparse3_causal_pse");
  right_down.q_lens = {4, 9, 2};
  right_down.kv_lens = {9, 9, 5};
  specs.push_back(right_down);
  VarSpec pse0 = with(Pse::kFull, Mask::kSquare, 0, "v2_pse_type0");
  pse0.version = Version::kVarLenV2;
  pse0.pse_type = 0;
  specs.push_back(pse0);
  VarSpec tail;
  tail.q_lens = {3, 5};
  tail.kv_lens = {4, 6};
  tail.tail = 4;
  tail.name = "rows_past_the_last_length";
  specs.push_back(tail);
  VarSpec big;
  big.dtype = ACL_BF16;
  big.heads = 8;
  big.kv_heads = 2;
  big.d = 128;
  big.dv = 64;
  big.q_lens = {70, 1, 33};
  big.kv_lens = {130, 40, 33};
  big.name = "bf16_d128_value_d64_gqa4";
  specs.push_back(big);
  VarSpec strided;
  strided.view = View::kStepped;
  strided.name = "strided_query_key";
  specs.push_back(strided);
  VarSpec example;  // CANN's example: one sequence of 256, one head, stats given as [T, 1, 8]
  example.heads = example.kv_heads = 1;
  example.d = example.dv = 128;
  example.q_lens = example.kv_lens = {256};
  example.mask = Mask::kSquare;
  example.stats_tnd = true;
  example.name = "doc_example_shapes";
  specs.push_back(example);
  for (aclDataType dtype : {ACL_BF16}) {
    VarSpec rope = with(Pse::kNone, Mask::kOptimised, 3, "v3_rope_sparse3");
    rope.version = Version::kVarLenV3;
    rope.dtype = dtype;
    rope.q_lens = {5, 8};
    rope.kv_lens = {7, 8};
    rope.rope_d = 8;
    specs.push_back(rope);
    VarSpec rope_mask = rope;
    rope_mask.mask = Mask::kSquare;
    rope_mask.sparse = 0;
    rope_mask.rope_d = 16;
    rope_mask.name = "v3_rope_mask_square";
    specs.push_back(rope_mask);
  }
  VarSpec v4_ntd;
  v4_ntd.version = Version::kVarLenV4;
  v4_ntd.name = "v4_stats_ntd";
  specs.push_back(v4_ntd);
  // FlashAttentionScoreV2: BSND, every sequence alike.
  for (int64_t pse_type : {0, 1}) {
    VarSpec dense = with(Pse::kFull, Mask::kBatched, 0, "score_v2_pse_type" + std::to_string(pse_type));
    dense.version = Version::kScoreV2;
    dense.pse_type = pse_type;
    dense.q_lens = {7, 7};
    dense.kv_lens = {10, 10};
    specs.push_back(dense);
  }
  VarSpec dense_row = with(Pse::kRow, Mask::kOptimised, 3, "score_v2_pse_type0_row_sparse3");
  dense_row.version = Version::kScoreV2;
  dense_row.pse_type = 0;
  dense_row.dtype = ACL_BF16;
  dense_row.q_lens = {12, 12};
  dense_row.kv_lens = {5, 5};
  specs.push_back(dense_row);
  return specs;
}

class FlashAttentionVarLenTest : public ::testing::TestWithParam<VarSpec> {};
TEST_P(FlashAttentionVarLenTest, MatchesNaiveSoftmaxReference) { RunVarSpec(GetParam()); }
INSTANTIATE_TEST_SUITE_P(VarLen, FlashAttentionVarLenTest, ::testing::ValuesIn(VarSpecs()),
                         [](const ::testing::TestParamInfo<VarSpec>& info) { return SanitizeName(info.param.name); });

// pseType 1 is FlashAttentionScore's form: V2 gives its very bits.
TEST(FlashAttentionScoreV2, PseType1IsFlashAttentionScore) {
  Rng rng = Rng::ForCurrentTest();
  const Shape q_shape = {2, 4, 9, 16}, kv_shape = {2, 2, 13, 16}, stats = {2, 4, 9, 8};
  DeviceTensor query(ACL_FLOAT16, q_shape), key(ACL_FLOAT16, kv_shape), value(ACL_FLOAT16, kv_shape);
  DeviceTensor pse(ACL_FLOAT16, {2, 4, 9, 13}), mask(ACL_BOOL, {9, 13});
  for (DeviceTensor* t : {&query, &key, &value, &pse}) t->FillRandom(rng, Range{-1, 1});
  mask.FillRandom(rng, Range{0, 1});
  std::vector<std::unique_ptr<DeviceTensor>> outs;
  for (int op = 0; op < 2; ++op) {
    auto out = Poisoned(ACL_FLOAT16, q_shape), max = Poisoned(ACL_FLOAT, stats), sum = Poisoned(ACL_FLOAT, stats);
    char layout[] = "BNSD";
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          if (op == 0) {
            return aclnnFlashAttentionScoreGetWorkspaceSize(a.Tensor(query), a.Tensor(key), a.Tensor(value),
                                                            a.Tensor(pse), nullptr, nullptr, a.Tensor(mask), nullptr,
                                                            0.25, 1.0, 4, 2, 4, layout, 0, 0, a.Tensor(*max),
                                                            a.Tensor(*sum), nullptr, a.Tensor(*out), w, e);
          }
          return aclnnFlashAttentionScoreV2GetWorkspaceSize(
              a.Tensor(query), a.Tensor(key), a.Tensor(value), a.Tensor(pse), nullptr, nullptr, a.Tensor(mask), nullptr,
              nullptr, nullptr, 0.25, 1.0, 4, 2, 4, layout, 0, 0, 1, a.Tensor(*max), a.Tensor(*sum), nullptr,
              a.Tensor(*out), w, e);
        },
        op == 0 ? aclnnFlashAttentionScore : aclnnFlashAttentionScoreV2);
    ASSERT_TRUE(run.ok()) << Describe(run);
    outs.push_back(std::move(out));
    outs.push_back(std::move(max));
    outs.push_back(std::move(sum));
  }
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(outs[i]->DownloadBytes(), outs[i + 3]->DownloadBytes()) << "output " << i;
}

// A valid f16 TND call (lengths [3, 4] of 7 query rows, [4, 5] of 9 keys, N 4 / 2, D 16); `edit` changes it.
struct VarCall {
  Version version = Version::kVarLenV2;
  aclDataType dtype = ACL_FLOAT16, rope_dtype = ACL_BF16;
  Shape q = {7, 4, 16}, k = {9, 2, 16}, v = {9, 2, 16}, out = {7, 4, 16}, stats = {4, 7, 8};
  Shape q_rope = {7, 4, 8}, k_rope = {9, 2, 8};
  Shape pse, mask = {4, 5};
  aclDataType pse_dtype = ACL_FLOAT16;
  std::vector<int64_t> q_ends = {3, 7}, kv_ends = {4, 9};
  int64_t heads = 4, sparse = 0, pse_type = 1;
  std::string layout = "TND", stats_layout;
  bool drop = false;
};

OpRun RunVar(const VarCall& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        std::vector<char> layout(c.layout.begin(), c.layout.end()), stats(c.stats_layout.begin(), c.stats_layout.end());
        layout.push_back('\0');
        stats.push_back('\0');
        const auto opt = [&](aclDataType dtype, const Shape& shape) {
          return shape.empty() ? nullptr : a.NewTensor(dtype, shape);
        };
        aclTensor *q = a.NewTensor(c.dtype, c.q), *k = a.NewTensor(c.dtype, c.k), *v = a.NewTensor(c.dtype, c.v),
                  *p = opt(c.pse_dtype, c.pse), *m = opt(ACL_UINT8, c.mask),
                  *d = c.drop ? a.NewTensor(ACL_UINT8, {8}) : nullptr;
        aclTensor *max = a.NewTensor(ACL_FLOAT, c.stats), *sum = a.NewTensor(ACL_FLOAT, c.stats),
                  *out = a.NewTensor(c.dtype, c.out);
        aclIntArray *ql = a.IntArray(c.q_ends), *kl = a.IntArray(c.kv_ends);
        switch (c.version) {
          case Version::kVarLenV3:
            return aclnnFlashAttentionVarLenScoreV3GetWorkspaceSize(
                q, a.NewTensor(c.rope_dtype, c.q_rope), k, a.NewTensor(c.rope_dtype, c.k_rope), v, p, d, nullptr, m,
                nullptr, ql, kl, nullptr, nullptr, 0.25, 1.0, 65536, 65536, c.heads, layout.data(), 0, c.sparse,
                c.pse_type, max, sum, nullptr, out, w, e);
          case Version::kVarLenV4:
            return aclnnFlashAttentionVarLenScoreV4GetWorkspaceSize(
                q, k, v, p, d, nullptr, m, nullptr, ql, kl, 0.25, 1.0, 65536, 65536, c.heads, layout.data(), 0,
                c.sparse, stats.data(), max, sum, nullptr, out, w, e);
          default:
            break;
        }
        return aclnnFlashAttentionVarLenScoreV2GetWorkspaceSize(
            q, k, v, p, d, nullptr, m, nullptr, ql, kl, nullptr, nullptr, 0.25, 1.0, 65536, 65536, c.heads,
            layout.data(), 0, c.sparse, c.pse_type, max, sum, nullptr, out, w, e);
      },
      c.version == Version::kVarLenV3   ? aclnnFlashAttentionVarLenScoreV3
      : c.version == Version::kVarLenV4 ? aclnnFlashAttentionVarLenScoreV4
                                        : aclnnFlashAttentionVarLenScoreV2);
}

TEST(FlashAttentionVarLenRejects, EachCase) {
  const auto expect = [](const std::function<void(VarCall&)>& edit, aclnnStatus status,
                         std::vector<std::string> words) {
    VarCall c;
    edit(c);
    ExpectRejectedWith(RunVar(c), status, words);
  };
  for (Version version : {Version::kVarLenV2, Version::kVarLenV3, Version::kVarLenV4}) {
    VarCall c;
    c.version = version;
    if (version == Version::kVarLenV3) c.dtype = ACL_BF16;
    EXPECT_TRUE(RunVar(c).ok()) << Describe(RunVar(c));
  }
  expect([](VarCall& c) { c.layout = "BSND"; }, kInvalid, {"'inputLayout'", "TND"});
  expect([](VarCall& c) { c.dtype = ACL_INT32; }, kInvalid, {"'query'"});
  expect([](VarCall& c) { c.pse_type = 4; }, kInvalid, {"'pseType'"});
  expect([](VarCall& c) { c.pse_type = 2; }, kInvalid, {"'realShiftOptional'", "pseType"});
  expect([](VarCall& c) { c.pse_type = 3, c.pse = {2, 4, 4, 5}; }, kInvalid, {"'realShiftOptional'"});
  expect(
      [](VarCall& c) {
        c.pse_type = 3, c.pse = {2, 4, 4, 5}, c.pse_dtype = ACL_FLOAT;
      },
      kNotSupported, {"'pseType'"});
  expect([](VarCall& c) { c.sparse = 4; }, kNotSupported, {"'sparseMode'"});
  expect([](VarCall& c) { c.q = c.out = {7, 64}; }, kInvalid, {"rank 2"});
  expect([](VarCall& c) { c.heads = 2; }, kInvalid, {"'headNum'"});
  expect([](VarCall& c) { c.k = c.v = {9, 3, 16}; }, kInvalid, {"divide headNum"});
  expect([](VarCall& c) { c.v = {9, 2, 32}; }, kInvalid, {"value's D"});
  expect([](VarCall& c) { c.out = {7, 4, 8}; }, kInvalid, {"'attentionOutOut'"});
  expect([](VarCall& c) { c.kv_ends = {9}; }, kInvalid, {"'actualSeqQLenOptional'", "'actualSeqKvLenOptional'"});
  expect([](VarCall& c) { c.q_ends = {4, 3}; }, kInvalid, {"'actualSeqQLenOptional'", "cumulative"});
  expect([](VarCall& c) { c.kv_ends = {4, 10}; }, kInvalid, {"'actualSeqKvLenOptional'"});
  expect([](VarCall& c) { c.stats = {7, 4, 8}; }, kInvalid, {"'softmaxMaxOut'"});
  expect([](VarCall& c) { c.mask = {3, 5}; }, kInvalid, {"'attenMaskOptional'"});
  expect([](VarCall& c) { c.mask = {4, 5}, c.sparse = 2; }, kInvalid, {"2048"});
  expect([](VarCall& c) { c.pse = {2, 4, 4, 4}; }, kInvalid, {"'realShiftOptional'"});
  // V4: the softmax layout.
  expect([](VarCall& c) { c.version = Version::kVarLenV4, c.stats_layout = "TND"; }, kInvalid, {"'softmaxOutLayout'"});
  expect([](VarCall& c) { c.version = Version::kVarLenV4, c.stats_layout = "same_as_input"; }, kInvalid,
         {"'softmaxMaxOut'", "[7,4,8]"});
  // V3: the rope parts take bf16, a mask, no pse or dropout, a rope D within query's.
  const auto v3 = [](VarCall& c) { c.version = Version::kVarLenV3, c.dtype = ACL_BF16; };
  expect([&](VarCall& c) { v3(c), c.rope_dtype = ACL_FLOAT16; }, kInvalid, {"'queryRope'", "BF16"});
  expect([&](VarCall& c) { v3(c), c.dtype = ACL_FLOAT16; }, kInvalid, {"'query'", "BF16"});
  expect([&](VarCall& c) { v3(c), c.mask.clear(); }, kNullptr, {"'attenMaskOptional'"});
  expect([&](VarCall& c) { v3(c), c.pse = {2, 4, 4, 5}, c.pse_dtype = ACL_BF16; }, kInvalid, {"'realShiftOptional'"});
  expect([&](VarCall& c) { v3(c), c.drop = true; }, kInvalid, {"'dropMaskOptional'"});
  expect([&](VarCall& c) { v3(c), c.sparse = 6; }, kInvalid, {"'sparseMode'"});
  expect([&](VarCall& c) { v3(c), c.q_rope = {7, 4, 32}, c.k_rope = {9, 2, 32}; }, kInvalid, {"queryRope"});
  expect([&](VarCall& c) { v3(c), c.k_rope = {9, 2, 4}; }, kInvalid, {"keyRope"});
}

}  // namespace
}  // namespace canopy_test
