// aclnnNsaCompressAttention and aclnnNsaCompressAttentionInfer against a
// float64 reference of CANN's formulas. NsaCompressAttention:
// per query token and head, softmax(scale * q k^T, masked keys at the lowest
// float) over its sequence's compressed keys, times the values; the softmax
// max and sum in CANN's per-sequence [N1, S, 8] order; each select block's
// importance score (the group's probabilities summed over the overlapping
// compressed blocks) and the selectBlockCount highest blocks, a topk mask
// forcing blocks in. f16 and bf16, GQA, several sequences of lengths off the
// block, strided views, empty outputs, the doc's example, and every rejection
// with its code.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_nsa_compress_attention.h"
#include "aclnnop/aclnn_nsa_compress_attention_infer.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

// Every storage element 1, written as bytes: a Values vector of the doc
// examples' caches (100 M elements in the inference one) took most of a minute.
void FillWithOnes(DeviceTensor& tensor) {
  std::vector<uint8_t> one(ElementBytes(tensor.dtype())), bytes(tensor.bytes());
  EncodeValue(Value(1.0), tensor.dtype(), one.data());
  for (size_t at = 0; at < bytes.size(); at += one.size()) std::memcpy(bytes.data() + at, one.data(), one.size());
  tensor.UploadBytes(bytes);
}

constexpr int64_t kStats = 8;

enum class Mask { kNone, kCausal, kRandom };

struct Case {
  aclDataType dtype = ACL_FLOAT16;
  std::vector<int64_t> q_lens = {40}, kv_lens = {20};
  int64_t heads = 4, kv_heads = 2, dim = 32, value_dim = 32;
  int64_t compress_block = 32, stride = 16, select_block = 64, count = 2;
  int64_t extra_tokens = 0;  // query rows past the sequences
  double scale = 0;          // 0: 1 / sqrt(dim)
  Mask mask = Mask::kNone;
  bool topk_mask = false;
  aclDataType mask_dtype = ACL_UINT8;
  View query_view = View::kContiguous, key_view = View::kContiguous, out_view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

int64_t PerSelect(const Case& c) { return c.select_block / c.stride; }
int64_t SelectBlocks(const Case& c, int64_t kv) { return (kv + PerSelect(c) - 1) / PerSelect(c); }
double Scale(const Case& c) { return c.scale != 0 ? c.scale : 1.0 / std::sqrt(static_cast<double>(c.dim)); }
int64_t Sum(const std::vector<int64_t>& v) { return std::accumulate(v.begin(), v.end(), int64_t{0}); }

// Masks and forced blocks, indexed by (position in the sequence, key or block).
std::vector<double> MakeMask(const Case& c, Rng& rng) {
  const int64_t rows = MaxOf(c.q_lens), cols = MaxOf(c.kv_lens);
  std::vector<double> mask(static_cast<size_t>(rows * cols), 0.0);
  for (int64_t s = 0; s < rows; ++s) {
    for (int64_t j = 0; j < cols; ++j) {
      double& m = mask[static_cast<size_t>(s * cols + j)];
      if (c.mask == Mask::kCausal) m = j * rows > s * cols ? 1.0 : 0.0;
      // Random, with row 1 masked whole (its softmax is uniform, as on the NPU).
      if (c.mask == Mask::kRandom) m = (s == 1 || rng.Uniform(0, 1) < 0.3) ? 1.0 : 0.0;
    }
  }
  return mask;
}

std::vector<double> MakeTopkMask(const Case& c, Rng& rng) {
  const int64_t rows = MaxOf(c.q_lens), cols = SelectBlocks(c, MaxOf(c.kv_lens));
  std::vector<double> mask(static_cast<size_t>(rows * cols), 0.0);
  for (double& m : mask) m = rng.Uniform(0, 1) < 0.15 ? 1.0 : 0.0;
  return mask;
}

struct Reference {
  Expected out;
  Values max, sum;
  std::vector<std::vector<double>> scores;  // per (token, key head): each block's score (none: a row past the tokens)
  std::vector<std::vector<int>> top;        // per (token, key head): the expected indices
};

// One query token and key head of either op, in float64: softmax(scale * q k^T,
// masked keys at the lowest float) for each of the G heads, the output rows
// (and the magnitudes their error scales with), each head's max and sum, and
// the select blocks' scores and the `count` highest.
struct TokenProblem {
  int64_t groups = 1, dim = 0, value_dim = 0, kv_len = 0, per_select = 1, per_compress = 1, blocks = 0, count = 1;
  double scale = 1;
};

struct TokenResult {
  std::vector<double> out, magnitude, max, sum, score;
  std::vector<int> top;
};

template <typename Q, typename K, typename V, typename Masked, typename Forced>
TokenResult AttendToken(const TokenProblem& p, const Q& q, const K& k, const V& v, const Masked& masked,
                        const Forced& forced) {
  TokenResult r;
  r.out.assign(static_cast<size_t>(p.groups * p.value_dim), 0.0);
  r.magnitude = r.out;
  std::vector<double> importance(static_cast<size_t>(p.kv_len), 0.0);
  for (int64_t g = 0; g < p.groups; ++g) {
    std::vector<double> x(static_cast<size_t>(p.kv_len));
    double max = -DBL_MAX;
    for (int64_t j = 0; j < p.kv_len; ++j) {
      double dot = 0;
      for (int64_t i = 0; i < p.dim; ++i) dot += q(g, i) * k(j, i);
      x[static_cast<size_t>(j)] = masked(j) ? -static_cast<double>(FLT_MAX) : dot * p.scale;
      max = std::max(max, x[static_cast<size_t>(j)]);
    }
    double sum = 0;
    for (double& e : x) sum += (e = std::exp(e - max));
    r.max.push_back(max);
    r.sum.push_back(sum);
    for (int64_t j = 0; j < p.kv_len; ++j) {
      const double prob = x[static_cast<size_t>(j)] / sum;
      importance[static_cast<size_t>(j)] += prob;
      for (int64_t i = 0; i < p.value_dim; ++i) {
        const double term = prob * v(j, i);
        r.out[static_cast<size_t>(g * p.value_dim + i)] += term;
        r.magnitude[static_cast<size_t>(g * p.value_dim + i)] += std::abs(term);
      }
    }
  }
  const int64_t window = p.per_select + p.per_compress - 1;
  for (int64_t j = 0; j < p.blocks; ++j) {
    double total = 0;
    for (int64_t i = 0; i < window; ++i) {
      const int64_t at = (j + 1) * p.per_select - i;
      const int64_t times = std::min({i + 1, window - i, p.per_compress});
      if (at >= 0 && at < p.kv_len) total += static_cast<double>(times) * importance[static_cast<size_t>(at)];
    }
    r.score.push_back(forced(j) ? static_cast<double>(FLT_MAX) : total);
  }
  r.top.resize(r.score.size());
  std::iota(r.top.begin(), r.top.end(), 0);
  std::stable_sort(r.top.begin(), r.top.end(),
                   [&](int a, int b) { return r.score[static_cast<size_t>(a)] > r.score[static_cast<size_t>(b)]; });
  r.top.resize(static_cast<size_t>(p.count));
  return r;
}

Reference Compute(const Case& c, const Values& q, const Values& k, const Values& v, const std::vector<double>& mask,
                  const std::vector<double>& topk_mask) {
  const int64_t tokens = Sum(c.q_lens) + c.extra_tokens, groups = c.heads / c.kv_heads;
  const int64_t mask_cols = MaxOf(c.kv_lens), topk_cols = SelectBlocks(c, mask_cols);
  Reference r;
  Values out(static_cast<size_t>(tokens * c.heads * c.value_dim), 0.0);
  std::vector<double> magnitude(out.size(), 0.0);
  r.max.assign(static_cast<size_t>(tokens * c.heads * kStats), 0.0);
  r.sum = r.max;
  r.scores.resize(static_cast<size_t>(tokens * c.kv_heads));
  r.top.resize(r.scores.size());
  int64_t q0 = 0, kv0 = 0;
  for (size_t b = 0; b < c.q_lens.size(); ++b) {
    const int64_t q_len = c.q_lens[b], kv_len = c.kv_lens[b];
    const TokenProblem problem{.groups = groups,
                               .dim = c.dim,
                               .value_dim = c.value_dim,
                               .kv_len = kv_len,
                               .per_select = PerSelect(c),
                               .per_compress = c.compress_block / c.stride,
                               .blocks = SelectBlocks(c, kv_len),
                               .count = c.count,
                               .scale = Scale(c)};
    for (int64_t s = 0; s < q_len; ++s) {
      const int64_t t = q0 + s;
      for (int64_t group = 0; group < c.kv_heads; ++group) {
        const TokenResult token = AttendToken(
            problem,
            [&](int64_t g, int64_t i) {
              return q[static_cast<size_t>((t * c.heads + group * groups + g) * c.dim + i)].real();
            },
            [&](int64_t j, int64_t i) {
              return k[static_cast<size_t>(((kv0 + j) * c.kv_heads + group) * c.dim + i)].real();
            },
            [&](int64_t j, int64_t i) {
              return v[static_cast<size_t>(((kv0 + j) * c.kv_heads + group) * c.value_dim + i)].real();
            },
            [&](int64_t j) { return !mask.empty() && mask[static_cast<size_t>(s * mask_cols + j)] != 0; },
            [&](int64_t j) { return !topk_mask.empty() && topk_mask[static_cast<size_t>(s * topk_cols + j)] != 0; });
        for (int64_t g = 0; g < groups; ++g) {
          const int64_t n = group * groups + g;
          const int64_t stat = (q0 * c.heads + n * q_len + s) * kStats;  // CANN's per-sequence [N1, S, 8]
          std::fill_n(r.max.begin() + stat, kStats, token.max[static_cast<size_t>(g)]);
          std::fill_n(r.sum.begin() + stat, kStats, token.sum[static_cast<size_t>(g)]);
        }
        const auto at = static_cast<size_t>((t * c.heads + group * groups) * c.value_dim);
        std::copy(token.out.begin(), token.out.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
        std::copy(token.magnitude.begin(), token.magnitude.end(), magnitude.begin() + static_cast<std::ptrdiff_t>(at));
        r.scores[static_cast<size_t>(t * c.kv_heads + group)] = token.score;
        r.top[static_cast<size_t>(t * c.kv_heads + group)] = token.top;
      }
    }
    q0 += q_len;
    kv0 += kv_len;
  }
  r.out = RelativeTolerance(out, c.dtype, 4, magnitude);
  return r;
}

// Each chosen block is in range, chosen once, and scores as high as the
// expected block at its rank (near-equal scores may come in either order);
// rows past the tokens are zero.
void ExpectTopK(const Values& got, int64_t count, const Reference& r) {
  ASSERT_EQ(got.size(), r.scores.size() * static_cast<size_t>(count));
  for (size_t row = 0; row < r.scores.size(); ++row) {
    const std::vector<double>& score = r.scores[row];
    std::vector<bool> seen(score.size(), false);
    for (int64_t i = 0; i < count; ++i) {
      const double index = got[row * static_cast<size_t>(count) + static_cast<size_t>(i)].real();
      if (score.empty()) {
        ASSERT_EQ(index, 0.0) << "row " << row << " past the tokens";
        continue;
      }
      ASSERT_TRUE(index >= 0 && index < static_cast<double>(score.size())) << "row " << row << " rank " << i;
      const auto chosen = static_cast<size_t>(index);
      ASSERT_FALSE(seen[chosen]) << "row " << row << " block " << chosen << " twice";
      seen[chosen] = true;
      const double want = score[static_cast<size_t>(r.top[row][static_cast<size_t>(i)])];
      EXPECT_NEAR(score[chosen], want, 1e-5 * std::max(1.0, std::abs(want)))
          << "row " << row << " rank " << i << ": block " << chosen;
    }
  }
}

struct Tensors {
  DeviceTensor query, key, value;
  std::unique_ptr<DeviceTensor> mask, topk_mask;
  DeviceTensor max, sum, out, indices;
  Tensors(const Case& c, int64_t tokens, int64_t kv_tokens)
      : query(c.dtype, {tokens, c.heads, c.dim}, c.query_view),
        key(c.dtype, {kv_tokens, c.kv_heads, c.dim}, c.key_view),
        value(c.dtype, {kv_tokens, c.kv_heads, c.value_dim}),
        max(ACL_FLOAT, {tokens, c.heads, kStats}),
        sum(ACL_FLOAT, {tokens, c.heads, kStats}, c.out_view),
        out(c.dtype, {tokens, c.heads, c.value_dim}, c.out_view),
        indices(ACL_INT32, {tokens, c.kv_heads, c.count}, c.out_view) {}
};

OpRun RunAttention(const Case& c, Tensors& x, const std::vector<int64_t>& q_ends, const std::vector<int64_t>& kv_ends,
                   const std::vector<int64_t>& sel_ends) {
  char layout[] = "TND";
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaCompressAttentionGetWorkspaceSize(
            a.Tensor(x.query), a.Tensor(x.key), a.Tensor(x.value), x.mask ? a.Tensor(*x.mask) : nullptr,
            x.topk_mask ? a.Tensor(*x.topk_mask) : nullptr, a.IntArray(q_ends), a.IntArray(kv_ends),
            a.IntArray(sel_ends), Scale(c), c.heads, layout, x.mask ? 1 : 0, c.compress_block, c.stride, c.select_block,
            c.count, a.Tensor(x.max), a.Tensor(x.sum), a.Tensor(x.out), a.Tensor(x.indices), w, e);
      },
      aclnnNsaCompressAttention);
}

std::vector<int64_t> SelectEnds(const Case& c) {
  std::vector<int64_t> sel;
  for (int64_t kv : c.kv_lens) sel.push_back(SelectBlocks(c, kv));
  return PrefixSums(sel);
}

class NsaCompressAttentionTest : public ::testing::TestWithParam<Case> {};

TEST_P(NsaCompressAttentionTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t tokens = Sum(c.q_lens) + c.extra_tokens, kv_tokens = Sum(c.kv_lens);
  Tensors x(c, tokens, kv_tokens);
  const Values q = x.query.FillRandom(rng, Range{-1, 1}), k = x.key.FillRandom(rng, Range{-1, 1});
  const Values v = x.value.FillRandom(rng, Range{-1, 1});
  std::vector<double> mask, topk_mask;
  if (c.mask != Mask::kNone) {
    mask = MakeMask(c, rng);
    x.mask = std::make_unique<DeviceTensor>(c.mask_dtype, Shape{MaxOf(c.q_lens), MaxOf(c.kv_lens)});
    x.mask->WriteView(Values(mask.begin(), mask.end()));
  }
  if (c.topk_mask) {
    topk_mask = MakeTopkMask(c, rng);
    x.topk_mask =
        std::make_unique<DeviceTensor>(c.mask_dtype, Shape{MaxOf(c.q_lens), SelectBlocks(c, MaxOf(c.kv_lens))});
    x.topk_mask->WriteView(Values(topk_mask.begin(), topk_mask.end()));
  }
  for (DeviceTensor* t : {&x.max, &x.sum, &x.out, &x.indices}) t->Poison();
  const std::vector<uint8_t> out_before = x.out.DownloadBytes(), indices_before = x.indices.DownloadBytes();
  const OpRun run = RunAttention(c, x, PrefixSums(c.q_lens), PrefixSums(c.kv_lens), SelectEnds(c));
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Reference r = Compute(c, q, k, v, mask, topk_mask);
  ExpectNear(x.out.ReadView(), r.out, "attentionOutOut");
  ExpectSoftmaxStats(x.max, x.sum, r.max, r.sum);
  ExpectTopK(x.indices.ReadView(), c.count, r);
  ExpectOutsideViewUnchanged(x.out, out_before, "attentionOutOut");
  ExpectOutsideViewUnchanged(x.indices, indices_before, "topkIndicesOut");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_one_sequence"});
    cases.push_back({.dtype = dtype,
                     .q_lens = {37, 0, 50, 21},
                     .kv_lens = {19, 9, 31, 13},
                     .heads = 8,
                     .kv_heads = 2,
                     .dim = 64,
                     .value_dim = 48,
                     .count = 3,
                     .extra_tokens = 5,
                     .mask = Mask::kCausal,
                     .name = t + "_gqa4_sequences_off_the_block_causal"});
    cases.push_back({.dtype = dtype,
                     .q_lens = {33, 24},
                     .kv_lens = {47, 26},
                     .heads = 6,
                     .kv_heads = 3,
                     .dim = 192,
                     .value_dim = 128,
                     .compress_block = 64,
                     .stride = 32,
                     .select_block = 128,
                     .count = 4,
                     .mask = Mask::kRandom,
                     .topk_mask = true,
                     .mask_dtype = ACL_BOOL,
                     .query_view = View::kStepped,
                     .key_view = View::kTransposed,
                     .out_view = View::kStepped,
                     .name = t + "_dim192_random_masks_strided_views"});
    cases.push_back({.dtype = dtype,
                     .q_lens = {16, 45},
                     .kv_lens = {17, 40},
                     .heads = 16,
                     .kv_heads = 1,
                     .dim = 128,
                     .value_dim = 128,
                     .compress_block = 16,
                     .stride = 16,
                     .select_block = 16,
                     .count = 17,
                     .topk_mask = true,
                     .query_view = View::kOffset,
                     .out_view = View::kTransposed,
                     .name = t + "_mqa16_one_block_windows_forced_blocks"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, NsaCompressAttentionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example (every input 1, zero masks): a uniform softmax gives
// outputs of 1; every select block but the last scores 8/64, the last 7/64.
TEST(NsaCompressAttention, DocExample) {
  const Case c{.q_lens = {1024},
               .kv_lens = {64},
               .heads = 16,
               .kv_heads = 4,
               .dim = 192,
               .value_dim = 128,
               .compress_block = 32,
               .stride = 16,
               .select_block = 64,
               .count = 16,
               .scale = 1.0};
  Tensors x(c, 1024, 64);
  for (DeviceTensor* t : {&x.query, &x.key, &x.value}) FillWithOnes(*t);
  x.mask = std::make_unique<DeviceTensor>(ACL_UINT8, Shape{1024, 64});
  x.topk_mask = std::make_unique<DeviceTensor>(ACL_UINT8, Shape{1024, 16});
  x.mask->WriteView(Values(static_cast<size_t>(x.mask->numel()), 0.0));
  x.topk_mask->WriteView(Values(static_cast<size_t>(x.topk_mask->numel()), 0.0));
  const OpRun run = RunAttention(c, x, {1024}, {64}, {16});
  ASSERT_TRUE(run.ok()) << Describe(run);
  for (const Value& v : x.out.ReadView()) ASSERT_EQ(v.real(), 1.0);
  for (const Value& v : x.max.ReadView()) ASSERT_EQ(v.real(), 192.0);
  for (const Value& v : x.sum.ReadView()) ASSERT_EQ(v.real(), 64.0);
  const Values indices = x.indices.ReadView();
  for (size_t row = 0; row < indices.size() / 16; ++row) {
    std::vector<int> got;
    for (size_t i = 0; i < 16; ++i) got.push_back(static_cast<int>(indices[row * 16 + i].real()));
    ASSERT_EQ(got.back(), 15) << "row " << row;  // the only block of lower score
    std::sort(got.begin(), got.end());
    for (int i = 0; i < 16; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], i) << "row " << row;
  }
}

// Every output empty (no query token): nothing to do, no workspace.
TEST(NsaCompressAttention, EmptyOutputsAreANoOp) {
  const Case c;
  Tensors x(c, 0, 20);
  const OpRun run = RunAttention(c, x, {0}, {20}, {5});
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0U);
}

// A second call of the same shapes reads the new values and addresses (plan-cache hit).
TEST(NsaCompressAttention, RepeatedCallUsesNewBuffers) {
  const Case c{.dtype = ACL_BF16, .q_lens = {20, 13}, .kv_lens = {11, 30}, .count = 3};
  for (int round = 0; round < 2; ++round) {
    Rng rng(static_cast<uint64_t>(round) + 11);
    Tensors x(c, 33, 41);
    const Values q = x.query.FillRandom(rng, Range{-1, 1}), k = x.key.FillRandom(rng, Range{-1, 1});
    const Values v = x.value.FillRandom(rng, Range{-1, 1});
    const OpRun run = RunAttention(c, x, PrefixSums(c.q_lens), PrefixSums(c.kv_lens), SelectEnds(c));
    ASSERT_TRUE(run.ok()) << Describe(run);
    const Reference r = Compute(c, q, k, v, {}, {});
    ExpectNear(x.out.ReadView(), r.out, "attentionOutOut");
    ExpectTopK(x.indices.ReadView(), c.count, r);
  }
}

// One call with each argument edited away from a valid one.
struct Call {
  aclDataType q = ACL_FLOAT16, k = ACL_FLOAT16, v = ACL_FLOAT16, mask = ACL_UINT8, topk_mask = ACL_BOOL;
  aclDataType max = ACL_FLOAT, sum = ACL_FLOAT, out = ACL_FLOAT16, indices = ACL_INT32;
  Shape qs = {40, 4, 32}, ks = {20, 2, 32}, vs = {20, 2, 32}, masks = {40, 20}, topk_masks = {40, 5};
  Shape maxs = {40, 4, 8}, sums = {40, 4, 8}, outs = {40, 4, 32}, indicess = {40, 2, 2};
  bool null_mask = false, null_topk_mask = false, null_q_ends = false, null_sel_ends = false;
  std::vector<int64_t> q_ends = {40}, kv_ends = {20}, sel_ends = {5};
  int64_t heads = 4, sparse = 1, compress = 32, stride = 16, select = 64, count = 2;
  std::string layout = "TND";
};

OpRun RunCall(const Call& c) {
  std::string layout = c.layout;
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaCompressAttentionGetWorkspaceSize(
            a.NewTensor(c.q, c.qs), a.NewTensor(c.k, c.ks), a.NewTensor(c.v, c.vs),
            c.null_mask ? nullptr : a.NewTensorIn(Range{0, 1}, c.mask, c.masks),
            c.null_topk_mask ? nullptr : a.NewTensorIn(Range{0, 1}, c.topk_mask, c.topk_masks),
            c.null_q_ends ? nullptr : a.IntArray(c.q_ends), a.IntArray(c.kv_ends),
            c.null_sel_ends ? nullptr : a.IntArray(c.sel_ends), 0.125, c.heads, layout.data(), c.sparse, c.compress,
            c.stride, c.select, c.count, a.NewTensor(c.max, c.maxs), a.NewTensor(c.sum, c.sums),
            a.NewTensor(c.out, c.outs), a.NewTensor(c.indices, c.indicess), w, e);
      },
      aclnnNsaCompressAttention);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(NsaCompressAttentionRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.null_mask = c.null_topk_mask = true; })).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.sparse = 0; })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.null_q_ends = true; })), ACLNN_ERR_PARAM_NULLPTR,
                     {"actualSeqQLenOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.null_sel_ends = true; })), ACLNN_ERR_PARAM_NULLPTR,
                     {"actualSelSeqKvLenOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.layout = "BSND"; })), kInvalid, {"'inputLayout'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.sparse = 2; })), kInvalid, {"'sparseMode'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.q = c.k = c.v = c.out = ACL_FLOAT; })), kInvalid, {"'query'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.k = ACL_BF16; })), kInvalid, {"'key'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.v = ACL_BF16; })), kInvalid, {"'value'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_BF16; })), kInvalid, {"'attentionOutOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.mask = ACL_INT8; })), kInvalid, {"attenMaskOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.topk_mask = ACL_FLOAT16; })), kInvalid, {"topkMaskOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.max = ACL_FLOAT16; })), kInvalid, {"softmaxMaxOut"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.sum = ACL_BF16; })), kInvalid, {"softmaxSumOut"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.indices = ACL_INT64; })), kInvalid, {"topkIndicesOut"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.qs = {40, 4, 8, 4}; })), kInvalid, {"'query'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.masks = {40, 20, 1}; })), kInvalid, {"'attenMaskOptional'", "rank"});
  // CANN's tiling checks (561002).
  ExpectRejectedWith(RunCall(With([](Call& c) { c.heads = 0; })), kTiling, {"'headNum'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.kv_ends = {10, 20}; })), kTiling, {"actualCmpSeqKvLenOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.q_ends = {41}; })), kTiling, {"actualSeqQLenOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.kv_ends = {21}; })), kTiling, {"actualCmpSeqKvLenOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ks = c.vs = {20, 3, 32}; })), kTiling, {"multiple"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.heads = 8; })), kTiling, {"'headNum'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.qs = c.outs = {40, 4, 784};
                       c.ks = c.vs = {20, 2, 784};
                     })),
                     kTiling, {"head dim"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.count = 0; })), kTiling, {"'selectBlockCount'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.count = 6;
                       c.indicess = {40, 2, 6};
                     })),
                     kTiling, {"'selectBlockCount'", "min(SelSkv)"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.compress = 24; })), kTiling, {"'compressBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.compress = 144; })), kTiling, {"'compressBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.stride = 80; })), kTiling, {"'compressStride'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.select = 136; })), kTiling, {"'selectBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.select = 16; })), kTiling, {"selectBlockSize (16) >="});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.stride = 32;
                       c.select = 48;
                     })),
                     kTiling, {"multiple of compressStride"});
  // The doc's limits (161002).
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.qs = c.outs = {40, 6, 32};
                       c.maxs = c.sums = {40, 6, 8};
                       c.heads = 6;
                       c.ks = c.vs = {20, 2, 32};
                     })),
                     kInvalid, {"divide 128"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ks = {20, 2, 16}; })), kInvalid, {"head dims"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.vs = {20, 2, 48};
                       c.outs = {40, 4, 48};
                     })),
                     kInvalid, {"head dims"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.vs = {19, 2, 32}; })), kInvalid, {"'value'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.sel_ends = {2, 5}; })), kInvalid, {"actualSelSeqKvLenOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.q_ends = {30, 20};
                       c.kv_ends = {10, 20};
                       c.sel_ends = {3, 5};
                     })),
                     kInvalid, {"actualSeqQLenOptional", "prefix sums"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.masks = {40, 21}; })), kInvalid, {"'attenMaskOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.topk_masks = {40, 4}; })), kInvalid, {"'topkMaskOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.maxs = {40, 4, 1}; })), kInvalid, {"'softmaxMaxOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.outs = {40, 2, 32}; })), kInvalid, {"'attentionOutOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.indicess = {40, 4, 2}; })), kInvalid, {"'topkIndicesOut'"});
}

TEST(NsaCompressAttentionRejects, LongestCompressedSequence) {
  Call c;
  c.kv_ends = {14001};
  c.ks = c.vs = {14001, 2, 32};
  c.masks = {40, 14001};
  c.topk_masks = {40, 3501};
  c.sel_ends = {3501};
  ExpectRejectedWith(RunCall(c), ACLNN_ERR_PARAM_INVALID, {"14000"});
  c.kv_ends = {14000};
  c.ks = c.vs = {14000, 2, 32};
  c.masks = {40, 14000};
  c.topk_masks = {40, 3500};
  c.sel_ends = {3500};
  EXPECT_TRUE(RunCall(c).ok());
}

// ---- NsaCompressAttentionInfer: one to four query tokens per sequence (TND or
// BSND) against a paged cache of compressed keys and values; the select blocks
// cover (kv - 1) * stride + compressBlockSize tokens; with an attention mask,
// a token that the last window does not cover (more later tokens than the
// sequence's tail) does not see the last compressed key.

struct InferCase {
  aclDataType dtype = ACL_FLOAT16;
  bool bsnd = false;
  std::vector<int64_t> kv_lens = {37, 100, 9};
  std::vector<int64_t> q_lens = {};  // empty: one token each, no list
  std::vector<int64_t> tails = {};   // actualSelKvSeqLen - ((kv - 1) * stride + compressBlockSize); empty: no list
  bool mask = false;
  int64_t heads = 8, kv_heads = 2, dim = 64, value_dim = 32;
  int64_t compress_block = 32, stride = 16, select_block = 64, count = 3, page = 16;
  View query_view = View::kContiguous, out_view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const InferCase& c, std::ostream* os) { *os << c.name; }

int64_t CoveredTokens(const InferCase& c, int64_t kv) { return (kv - 1) * c.stride + c.compress_block; }
int64_t InferBlocks(const InferCase& c, int64_t kv) {
  return (CoveredTokens(c, kv) + c.select_block - 1) / c.select_block;
}

struct InferSetup {
  int64_t batch = 0, most = 1, rows = 0, pages_per_batch = 0, pages = 0;
  std::vector<int64_t> q_lens, q_starts, sel_lens;
  std::vector<int32_t> table;
  Shape query, out, topk;
};

InferSetup MakeSetup(const InferCase& c, Rng& rng) {
  InferSetup z;
  z.batch = static_cast<int64_t>(c.kv_lens.size());
  z.q_lens = c.q_lens.empty() ? std::vector<int64_t>(static_cast<size_t>(z.batch), 1) : c.q_lens;
  z.most = MaxOf(z.q_lens);
  for (int64_t b = 0; b < z.batch; ++b) {
    z.q_starts.push_back(c.bsnd ? b * z.most : z.rows);
    z.rows = c.bsnd ? (b + 1) * z.most : z.rows + z.q_lens[static_cast<size_t>(b)];
  }
  for (size_t b = 0; b < c.tails.size(); ++b) z.sel_lens.push_back(CoveredTokens(c, c.kv_lens[b]) + c.tails[b]);
  z.pages_per_batch = (MaxOf(c.kv_lens) + c.page - 1) / c.page + 1;
  // Each sequence's pages, shuffled over the cache; unused entries -1 (never read).
  std::vector<int32_t> order;
  for (int64_t kv : c.kv_lens) z.pages += (kv + c.page - 1) / c.page;
  z.pages += 2;
  order.resize(static_cast<size_t>(z.pages));
  std::iota(order.begin(), order.end(), 0);
  for (size_t i = order.size() - 1; i > 0; --i) {
    std::swap(order[i], order[static_cast<size_t>(rng.Uniform(0, static_cast<double>(i) + 0.999))]);
  }
  z.table.assign(static_cast<size_t>(z.batch * z.pages_per_batch), -1);
  size_t next = 0;
  for (int64_t b = 0; b < z.batch; ++b) {
    for (int64_t p = 0; p * c.page < c.kv_lens[static_cast<size_t>(b)]; ++p) {
      z.table[static_cast<size_t>(b * z.pages_per_batch + p)] = order[next++];
    }
  }
  z.query = c.bsnd ? Shape{z.batch, z.most, c.heads, c.dim} : Shape{z.rows, c.heads, c.dim};
  z.out = z.query;
  z.out.back() = c.value_dim;
  z.topk = z.query;
  z.topk[z.topk.size() - 2] = c.kv_heads;
  z.topk.back() = c.count;
  return z;
}

Reference ComputeInfer(const InferCase& c, const InferSetup& z, const Values& q, const Values& k, const Values& v) {
  const int64_t groups = c.heads / c.kv_heads;
  Reference r;
  Values out(static_cast<size_t>(z.rows * c.heads * c.value_dim), 0.0);
  std::vector<double> magnitude(out.size(), 0.0);
  r.scores.resize(static_cast<size_t>(z.rows * c.kv_heads));
  r.top.resize(r.scores.size());
  for (int64_t b = 0; b < z.batch; ++b) {
    const int64_t kv_len = c.kv_lens[static_cast<size_t>(b)], q_len = z.q_lens[static_cast<size_t>(b)];
    const int64_t tail = c.tails.empty() ? 0 : c.tails[static_cast<size_t>(b)];
    const auto cache_row = [&](int64_t j) {
      return z.table[static_cast<size_t>(b * z.pages_per_batch + j / c.page)] * c.page + j % c.page;
    };
    const TokenProblem problem{.groups = groups,
                               .dim = c.dim,
                               .value_dim = c.value_dim,
                               .kv_len = kv_len,
                               .per_select = c.select_block / c.stride,
                               .per_compress = c.compress_block / c.stride,
                               .blocks = InferBlocks(c, kv_len),
                               .count = c.count,
                               .scale = 1.0 / std::sqrt(static_cast<double>(c.dim))};
    for (int64_t s = 0; s < q_len; ++s) {
      const int64_t t = z.q_starts[static_cast<size_t>(b)] + s;
      const bool mask_last = c.mask && q_len - s - 1 > tail;
      for (int64_t group = 0; group < c.kv_heads; ++group) {
        const TokenResult token = AttendToken(
            problem,
            [&](int64_t g, int64_t i) {
              return q[static_cast<size_t>((t * c.heads + group * groups + g) * c.dim + i)].real();
            },
            [&](int64_t j, int64_t i) {
              return k[static_cast<size_t>((cache_row(j) * c.kv_heads + group) * c.dim + i)].real();
            },
            [&](int64_t j, int64_t i) {
              return v[static_cast<size_t>((cache_row(j) * c.kv_heads + group) * c.value_dim + i)].real();
            },
            [&](int64_t j) { return mask_last && j == kv_len - 1; }, [](int64_t) { return false; });
        const auto at = static_cast<std::ptrdiff_t>((t * c.heads + group * groups) * c.value_dim);
        std::copy(token.out.begin(), token.out.end(), out.begin() + at);
        std::copy(token.magnitude.begin(), token.magnitude.end(), magnitude.begin() + at);
        r.scores[static_cast<size_t>(t * c.kv_heads + group)] = token.score;
        r.top[static_cast<size_t>(t * c.kv_heads + group)] = token.top;
      }
    }
  }
  r.out = RelativeTolerance(out, c.dtype, 4, magnitude);
  return r;
}

struct InferTensors {
  DeviceTensor query, key, value, table, out, topk;
  InferTensors(const InferCase& c, const InferSetup& z)
      : query(c.dtype, z.query, c.query_view),
        key(c.dtype, {z.pages, c.page, c.kv_heads * c.dim}),
        value(c.dtype, {z.pages, c.page, c.kv_heads * c.value_dim}),
        table(ACL_INT32, {z.batch, z.pages_per_batch}),
        out(c.dtype, z.out, c.out_view),
        topk(ACL_INT32, z.topk, c.out_view) {}
};

OpRun RunInfer(const InferCase& c, const InferSetup& z, InferTensors& x) {
  std::string layout = c.bsnd ? "BSND" : "TND";
  const bool several = !c.q_lens.empty();
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaCompressAttentionInferGetWorkspaceSize(
            a.Tensor(x.query), a.Tensor(x.key), a.Tensor(x.value), c.mask ? a.NewTensor(ACL_BOOL, {4, 8}) : nullptr,
            a.Tensor(x.table), several ? a.IntArray(c.q_lens) : nullptr, a.IntArray(c.kv_lens),
            c.tails.empty() ? nullptr : a.IntArray(z.sel_lens), nullptr, c.heads, c.kv_heads, c.select_block, c.count,
            c.compress_block, c.stride, 1.0 / std::sqrt(static_cast<double>(c.dim)), layout.data(), c.page, 0,
            a.Tensor(x.out), a.Tensor(x.topk), w, e);
      },
      aclnnNsaCompressAttentionInfer);
}

Values TableValues(const InferSetup& z) { return {z.table.begin(), z.table.end()}; }

class NsaCompressAttentionInferTest : public ::testing::TestWithParam<InferCase> {};

TEST_P(NsaCompressAttentionInferTest, MatchesReference) {
  const InferCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const InferSetup z = MakeSetup(c, rng);
  InferTensors x(c, z);
  const Values q = x.query.FillRandom(rng, Range{-1, 1}), k = x.key.FillRandom(rng, Range{-1, 1});
  const Values v = x.value.FillRandom(rng, Range{-1, 1});
  x.table.WriteView(TableValues(z));
  x.out.Poison();
  x.topk.Poison();
  const std::vector<uint8_t> out_before = x.out.DownloadBytes(), topk_before = x.topk.DownloadBytes();
  const OpRun run = RunInfer(c, z, x);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Reference r = ComputeInfer(c, z, q, k, v);
  ExpectNear(x.out.ReadView(), r.out, "output");
  ExpectTopK(x.topk.ReadView(), c.count, r);
  ExpectOutsideViewUnchanged(x.out, out_before, "output");
  ExpectOutsideViewUnchanged(x.topk, topk_before, "topKOutput");
}

std::vector<InferCase> InferCases() {
  std::vector<InferCase> cases;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_one_token_tnd"});
    cases.push_back({.dtype = dtype,
                     .kv_lens = {20, 33, 47, 12},
                     .q_lens = {1, 3, 4, 2},
                     .tails = {0, 0, 1, 0},
                     .mask = true,
                     .heads = 16,
                     .kv_heads = 4,
                     .dim = 128,
                     .value_dim = 128,
                     .compress_block = 64,
                     .stride = 32,
                     .select_block = 128,
                     .count = 4,
                     .page = 32,
                     .name = t + "_several_tokens_tnd_mask_gqa4"});
    cases.push_back({.dtype = dtype,
                     .bsnd = true,
                     .kv_lens = {25, 18, 40},
                     .q_lens = {2, 4, 1},
                     .heads = 4,
                     .kv_heads = 1,
                     .dim = 192,
                     .value_dim = 128,
                     .query_view = View::kStepped,
                     .out_view = View::kStepped,
                     .name = t + "_several_tokens_bsnd_dim192_strided"});
    cases.push_back({.dtype = dtype,
                     .bsnd = true,
                     .kv_lens = {7, 64, 30},
                     .heads = 32,
                     .kv_heads = 2,
                     .dim = 32,
                     .value_dim = 16,
                     .compress_block = 16,
                     .stride = 16,
                     .select_block = 16,
                     .count = 7,
                     .page = 48,
                     .query_view = View::kTransposed,
                     .out_view = View::kTransposed,
                     .name = t + "_one_token_bsnd_gqa16_select_16"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, NsaCompressAttentionInferTest, ::testing::ValuesIn(InferCases()),
                         [](const ::testing::TestParamInfo<InferCase>& info) { return SanitizeName(info.param.name); });

// The doc's example (every input 1, one token per sequence): a uniform softmax
// gives outputs of 1 and each select block's score from the windows it holds.
TEST(NsaCompressAttentionInfer, DocExample) {
  const InferCase c{.kv_lens = std::vector<int64_t>(20, 4096),
                    .heads = 64,
                    .kv_heads = 4,
                    .dim = 192,
                    .value_dim = 128,
                    .count = 16,
                    .page = 128};
  InferSetup z;
  z.batch = 20;
  z.pages = 640;
  z.pages_per_batch = 32;
  z.q_lens.assign(20, 1);
  z.table.assign(20 * 32, 1);  // every sequence reads page 1, as the example's table says
  z.query = {20, 64, 192};
  z.out = {20, 64, 128};
  z.topk = {20, 4, 16};
  InferTensors x(c, z);
  for (DeviceTensor* t : {&x.query, &x.key, &x.value}) FillWithOnes(*t);
  x.table.WriteView(TableValues(z));
  const OpRun run = RunInfer(c, z, x);
  ASSERT_TRUE(run.ok()) << Describe(run);
  for (const Value& v : x.out.ReadView()) ASSERT_EQ(v.real(), 1.0);
  // 1025 blocks: 0..1022 score 8/4096, 1023 scores 7/4096 (its last key is past the sequence), 1024 nothing.
  const Values topk = x.topk.ReadView();
  for (size_t row = 0; row < topk.size() / 16; ++row) {
    for (size_t i = 0; i < 16; ++i) ASSERT_EQ(topk[row * 16 + i].real(), static_cast<double>(i)) << row;
  }
}

TEST(NsaCompressAttentionInfer, PageOutsideTheCacheFailsTheRun) {
  const InferCase c;
  Rng rng(5);
  InferSetup z = MakeSetup(c, rng);
  z.table[static_cast<size_t>(z.pages_per_batch)] = static_cast<int32_t>(z.pages);  // sequence 1's first page
  InferTensors x(c, z);
  x.table.WriteView(TableValues(z));
  const OpRun run = RunInfer(c, z, x);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
}

TEST(NsaCompressAttentionInfer, EmptyOutputsAreANoOp) {
  InferCase c;
  c.count = 0;
  c.value_dim = 0;
  Rng rng(3);
  const InferSetup z = MakeSetup(c, rng);
  InferTensors x(c, z);
  const OpRun run = RunInfer(c, z, x);
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0U);
}

// One call with each argument edited away from a valid one.
struct InferCall {
  aclDataType q = ACL_FLOAT16, k = ACL_FLOAT16, v = ACL_FLOAT16, table = ACL_INT32, out = ACL_FLOAT16, topk = ACL_INT32,
              mask = ACL_BOOL;
  Shape qs = {2, 4, 32}, ks = {4, 16, 64}, vs = {4, 16, 64}, tables = {2, 2}, outs = {2, 4, 32}, topks = {2, 2, 2};
  bool with_mask = false;
  std::vector<int64_t> q_lens = {}, kv_lens = {20, 24}, sel_lens = {};
  int64_t heads = 4, kv_heads = 2, select = 64, count = 2, compress = 32, stride = 16, page = 16;
  std::string layout = "TND";
};

OpRun RunInferCall(const InferCall& c) {
  std::string layout = c.layout;
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaCompressAttentionInferGetWorkspaceSize(
            a.NewTensor(c.q, c.qs), a.NewTensor(c.k, c.ks), a.NewTensor(c.v, c.vs),
            c.with_mask ? a.NewTensor(c.mask, {4, 8}) : nullptr, a.NewTensorIn(Range{0, 3}, c.table, c.tables),
            c.q_lens.empty() ? nullptr : a.IntArray(c.q_lens), a.IntArray(c.kv_lens),
            c.sel_lens.empty() ? nullptr : a.IntArray(c.sel_lens), nullptr, c.heads, c.kv_heads, c.select, c.count,
            c.compress, c.stride, 0.125, layout.data(), c.page, 0, a.NewTensor(c.out, c.outs),
            a.NewTensor(c.topk, c.topks), w, e);
      },
      aclnnNsaCompressAttentionInfer);
}

template <typename Edit>
InferCall WithInfer(Edit edit) {
  InferCall c;
  edit(c);
  return c;
}

TEST(NsaCompressAttentionInferRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const auto run = [](auto edit) { return RunInferCall(WithInfer(edit)); };
  EXPECT_TRUE(RunInferCall(InferCall{}).ok());
  EXPECT_TRUE(run([](InferCall& c) {
                c.with_mask = true;
                c.q_lens = {3, 2};
                c.sel_lens = {336, 400};
                c.qs = c.outs = {5, 4, 32};
                c.topks = {5, 2, 2};
              }).ok());
  EXPECT_TRUE(run([](InferCall& c) {
                c.layout = "BSND";
                c.qs = c.outs = {2, 1, 4, 32};
                c.topks = {2, 1, 2, 2};
              }).ok());
  // The host checks (161002).
  ExpectRejectedWith(run([](InferCall& c) { c.qs = c.outs = {0, 4, 32}; }), kInvalid, {"'query'", "batch"});
  ExpectRejectedWith(run([](InferCall& c) { c.q = c.k = c.v = c.out = ACL_FLOAT; }), kInvalid, {"'query'"});
  ExpectRejectedWith(run([](InferCall& c) { c.k = ACL_BF16; }), kInvalid, {"'key'"});
  ExpectRejectedWith(run([](InferCall& c) { c.v = ACL_BF16; }), kInvalid, {"'value'"});
  ExpectRejectedWith(run([](InferCall& c) { c.out = ACL_BF16; }), kInvalid, {"'output'"});
  ExpectRejectedWith(run([](InferCall& c) { c.table = ACL_INT64; }), kInvalid, {"'blockTableOptional'"});
  ExpectRejectedWith(run([](InferCall& c) { c.topk = ACL_INT64; }), kInvalid, {"'topKOutput'"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.with_mask = true;
                       c.mask = ACL_UINT8;
                     }),
                     kInvalid, {"'attentionMaskOptional'"});
  ExpectRejectedWith(run([](InferCall& c) { c.layout = "BNSD"; }), kInvalid, {"'layoutOptional'"});
  // The tiling's (561002).
  ExpectRejectedWith(run([](InferCall& c) { c.layout = "BSND"; }), kTiling, {"'query'", "rank"});
  ExpectRejectedWith(run([](InferCall& c) { c.ks = {4, 16, 64, 1}; }), kTiling, {"'key'", "rank"});
  ExpectRejectedWith(run([](InferCall& c) { c.kv_heads = 0; }), kTiling, {"'numKeyValueHeads'"});
  ExpectRejectedWith(run([](InferCall& c) { c.kv_lens = {20}; }), kTiling, {"'actualCmpKvSeqLenOptional'"});
  ExpectRejectedWith(run([](InferCall& c) { c.q_lens = {1}; }), kTiling, {"'actualQSeqLenOptional'"});
  ExpectRejectedWith(run([](InferCall& c) { c.q_lens = {5, 1}; }), kTiling, {"'actualQSeqLenOptional'", "[1, 4]"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.q_lens = {3, 2};
                       c.sel_lens = {336, 401 + 16};
                       c.qs = c.outs = {5, 4, 32};
                       c.topks = {5, 2, 2};
                     }),
                     kTiling, {"actualSelKvSeqLen"});
  ExpectRejectedWith(run([](InferCall& c) { c.qs = c.outs = {3, 4, 32}; }), kTiling, {"batch"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.q_lens = {3, 2};
                       c.topks = {5, 2, 2};
                     }),
                     kTiling, {"TND", "sum"});
  ExpectRejectedWith(run([](InferCall& c) { c.heads = 8; }), kTiling, {"'numHeads'"});
  ExpectRejectedWith(run([](InferCall& c) { c.vs = {5, 16, 64}; }), kTiling, {"blocks"});
  ExpectRejectedWith(run([](InferCall& c) { c.page = 32; }), kTiling, {"'pageBlockSize'"});
  ExpectRejectedWith(run([](InferCall& c) { c.compress = 24; }), kTiling, {"'compressBlockSize'"});
  ExpectRejectedWith(run([](InferCall& c) { c.compress = 128; }), kTiling, {"selectBlockSize (64) >="});
  ExpectRejectedWith(run([](InferCall& c) { c.stride = 80; }), kTiling, {"selectBlockSize"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.select = 144;
                       c.compress = 144;
                     }),
                     kTiling, {"'compressBlockSize'"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.stride = 32;
                       c.compress = 32;
                       c.select = 48;
                     }),
                     kTiling, {"multiple of compressBlockStride"});
  ExpectRejectedWith(run([](InferCall& c) { c.count = 7; }), kTiling, {"'selectBlockCount'"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.heads = 6;
                       c.kv_heads = 4;
                       c.qs = c.outs = {2, 6, 32};
                     }),
                     kTiling, {"'numHeads'", "multiple"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.heads = 6;
                       c.qs = c.outs = {2, 6, 32};
                     }),
                     kTiling, {"divide 128"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.qs = {2, 4, 208};
                       c.ks = {4, 16, 416};
                     }),
                     kTiling, {"head dims"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.vs = {4, 16, 96};
                       c.outs = {2, 4, 48};
                     }),
                     kTiling, {"head dims"});
  // Canopy's own (161002).
  ExpectRejectedWith(run([](InferCall& c) { c.ks = {4, 16, 32}; }), kInvalid, {"key's rows"});
  ExpectRejectedWith(run([](InferCall& c) { c.kv_lens = {20, 33}; }), kInvalid, {"block table covers"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.kv_lens = {0, 20};
                       c.count = 1;
                       c.topks = {2, 2, 1};
                     }),
                     kInvalid, {"at least 1"});
  ExpectRejectedWith(run([](InferCall& c) {
                       c.with_mask = true;
                       c.q_lens = {3, 2};
                       c.qs = c.outs = {5, 4, 32};
                       c.topks = {5, 2, 2};
                     }),
                     kInvalid, {"'actualSelKvSeqLenOptional'"});
  ExpectRejectedWith(run([](InferCall& c) { c.outs = {2, 4, 16}; }), kInvalid, {"'output'"});
  ExpectRejectedWith(run([](InferCall& c) { c.topks = {2, 4, 2}; }), kInvalid, {"'topKOutput'"});
}

}  // namespace
}  // namespace canopy_test
