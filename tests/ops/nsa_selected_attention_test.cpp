// aclnnNsaSelectedAttention against a float64 reference of CANN's formulas:
// per query token and head, softmax(scale * q k^T) over the selectedBlockCount
// key blocks that topkIndices names for its key head (a block named twice
// counts twice), a causal mask by position with a mask and sparseMode 2 (a
// masked key scores lowest * scale, as CANN masks before it scales), times the
// values; the softmax max and sum at [T, N1, 8]. f16 and bf16, GQA and MQA,
// several sequences, rows past the sequences, strided views, empty outputs,
// an index outside its sequence's keys failing the run, the doc's example, and
// every rejection with its code.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#include "aclnnop/aclnn_nsa_selected_attention.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kStats = 8;

struct Case {
  aclDataType dtype = ACL_FLOAT16;
  std::vector<int64_t> q_lens = {40}, kv_lens = {64};
  int64_t heads = 4, kv_heads = 2, dim = 32, value_dim = 32;
  int64_t block = 16, count = 2;
  int64_t extra_tokens = 0;  // query rows past the sequences
  double scale = 0;          // 0: 1 / sqrt(dim)
  bool mask = false;
  int64_t sparse = 0;
  aclDataType mask_dtype = ACL_UINT8;
  View query_view = View::kContiguous, key_view = View::kContiguous, out_view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

double Scale(const Case& c) { return c.scale != 0 ? c.scale : 1.0 / std::sqrt(static_cast<double>(c.dim)); }
int64_t Sum(const std::vector<int64_t>& v) { return std::accumulate(v.begin(), v.end(), int64_t{0}); }

// Random block indices inside each sequence's keys (repeats allowed); rows
// past the sequences hold a value the op must not read.
std::vector<int64_t> MakeIndices(const Case& c, Rng& rng) {
  std::vector<int64_t> indices;
  for (size_t b = 0; b < c.q_lens.size(); ++b) {
    const int64_t blocks = c.kv_lens[b] / c.block;
    for (int64_t i = 0; i < c.q_lens[b] * c.kv_heads * c.count; ++i) {
      indices.push_back(std::min(blocks - 1, static_cast<int64_t>(rng.Uniform(0, static_cast<double>(blocks)))));
    }
  }
  indices.resize(static_cast<size_t>((Sum(c.q_lens) + c.extra_tokens) * c.kv_heads * c.count), 1 << 20);
  return indices;
}

struct Reference {
  Expected out;
  Values max, sum;
};

Reference Compute(const Case& c, const Values& q, const Values& k, const Values& v,
                  const std::vector<int64_t>& indices) {
  const int64_t tokens = Sum(c.q_lens) + c.extra_tokens, groups = c.heads / c.kv_heads;
  const int64_t selected = c.count * c.block;
  const bool causal = c.mask && c.sparse == 2;
  // The NPU scales the masked score in f32 (lowest * scale, rounded).
  const double scale = Scale(c), masked_score = -FLT_MAX * static_cast<float>(scale);
  Values out(static_cast<size_t>(tokens * c.heads * c.value_dim), 0.0);
  std::vector<double> magnitude(out.size(), 0.0);
  Reference r;
  r.max.assign(static_cast<size_t>(tokens * c.heads * kStats), 0.0);
  r.sum = r.max;
  int64_t q0 = 0, kv0 = 0;
  for (size_t b = 0; b < c.q_lens.size(); ++b) {
    for (int64_t s = 0; s < c.q_lens[b]; ++s) {
      const int64_t t = q0 + s;
      for (int64_t group = 0; group < c.kv_heads; ++group) {
        const auto* blocks = &indices[static_cast<size_t>((t * c.kv_heads + group) * c.count)];
        std::vector<int64_t> position;
        for (int64_t j = 0; j < selected; ++j) position.push_back(blocks[j / c.block] * c.block + j % c.block);
        for (int64_t g = 0; g < groups; ++g) {
          const int64_t n = group * groups + g;
          std::vector<double> x(static_cast<size_t>(selected));
          double max = -DBL_MAX;
          for (int64_t j = 0; j < selected; ++j) {
            const int64_t row = kv0 + position[static_cast<size_t>(j)];
            double dot = 0;
            for (int64_t i = 0; i < c.dim; ++i) {
              dot += q[static_cast<size_t>((t * c.heads + n) * c.dim + i)].real() *
                     k[static_cast<size_t>((row * c.kv_heads + group) * c.dim + i)].real();
            }
            const bool masked = causal && position[static_cast<size_t>(j)] > s;
            x[static_cast<size_t>(j)] = masked ? masked_score : dot * scale;
            max = std::max(max, x[static_cast<size_t>(j)]);
          }
          double sum = 0;
          for (double& e : x) sum += (e = std::exp(e - max));
          std::fill_n(r.max.begin() + (t * c.heads + n) * kStats, kStats, max);
          std::fill_n(r.sum.begin() + (t * c.heads + n) * kStats, kStats, sum);
          for (int64_t j = 0; j < selected; ++j) {
            const int64_t row = kv0 + position[static_cast<size_t>(j)];
            for (int64_t i = 0; i < c.value_dim; ++i) {
              const double term = x[static_cast<size_t>(j)] / sum *
                                  v[static_cast<size_t>((row * c.kv_heads + group) * c.value_dim + i)].real();
              const auto at = static_cast<size_t>((t * c.heads + n) * c.value_dim + i);
              out[at] += term;
              magnitude[at] += std::abs(term);
            }
          }
        }
      }
    }
    q0 += c.q_lens[b];
    kv0 += c.kv_lens[b];
  }
  r.out = RelativeTolerance(out, c.dtype, 4, magnitude);
  return r;
}

struct Tensors {
  DeviceTensor query, key, value, indices;
  std::unique_ptr<DeviceTensor> mask;
  DeviceTensor max, sum, out;
  Tensors(const Case& c, int64_t tokens, int64_t kv_tokens)
      : query(c.dtype, {tokens, c.heads, c.dim}, c.query_view),
        key(c.dtype, {kv_tokens, c.kv_heads, c.dim}, c.key_view),
        value(c.dtype, {kv_tokens, c.kv_heads, c.value_dim}),
        indices(ACL_INT32, {tokens, c.kv_heads, c.count}),
        max(ACL_FLOAT, {tokens, c.heads, kStats}),
        sum(ACL_FLOAT, {tokens, c.heads, kStats}, c.out_view),
        out(c.dtype, {tokens, c.heads, c.value_dim}, c.out_view) {}
};

OpRun RunAttention(const Case& c, Tensors& x, const std::vector<int64_t>& q_ends, const std::vector<int64_t>& kv_ends) {
  char layout[] = "TND";
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaSelectedAttentionGetWorkspaceSize(
            a.Tensor(x.query), a.Tensor(x.key), a.Tensor(x.value), a.Tensor(x.indices),
            x.mask ? a.Tensor(*x.mask) : nullptr, a.IntArray(q_ends), a.IntArray(kv_ends), Scale(c), c.heads, layout,
            c.sparse, c.block, c.count, a.Tensor(x.max), a.Tensor(x.sum), a.Tensor(x.out), w, e);
      },
      aclnnNsaSelectedAttention);
}

Values AsValues(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }

class NsaSelectedAttentionTest : public ::testing::TestWithParam<Case> {};

TEST_P(NsaSelectedAttentionTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t tokens = Sum(c.q_lens) + c.extra_tokens, kv_tokens = Sum(c.kv_lens);
  Tensors x(c, tokens, kv_tokens);
  const Values q = x.query.FillRandom(rng, Range{-1, 1}), k = x.key.FillRandom(rng, Range{-1, 1});
  const Values v = x.value.FillRandom(rng, Range{-1, 1});
  const std::vector<int64_t> indices = MakeIndices(c, rng);
  x.indices.WriteView(AsValues(indices));
  if (c.mask) {
    // CANN's kernel reads no mask values: random ones must change nothing.
    x.mask = std::make_unique<DeviceTensor>(c.mask_dtype, Shape{MaxOf(c.q_lens), MaxOf(c.kv_lens)});
    x.mask->FillRandom(rng, Range{0, 1, 0, 0, /*allowAllZero=*/true});
  }
  for (DeviceTensor* t : {&x.max, &x.sum, &x.out}) t->Poison();
  const std::vector<uint8_t> out_before = x.out.DownloadBytes(), sum_before = x.sum.DownloadBytes();
  const OpRun run = RunAttention(c, x, PrefixSums(c.q_lens), PrefixSums(c.kv_lens));
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Reference r = Compute(c, q, k, v, indices);
  ExpectNear(x.out.ReadView(), r.out, "attentionOut");
  ExpectSoftmaxStats(x.max, x.sum, r.max, r.sum);
  ExpectOutsideViewUnchanged(x.out, out_before, "attentionOut");
  ExpectOutsideViewUnchanged(x.sum, sum_before, "softmaxSumOut");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_one_sequence"});
    cases.push_back({.dtype = dtype,
                     .q_lens = {37, 0, 50, 21},
                     .kv_lens = {40, 16, 70, 32},
                     .heads = 8,
                     .kv_heads = 2,
                     .dim = 64,
                     .value_dim = 48,
                     .count = 3,
                     .extra_tokens = 5,
                     .mask = true,
                     .sparse = 2,
                     .name = t + "_gqa4_sequences_causal_rows_past"});
    cases.push_back({.dtype = dtype,
                     .q_lens = {33, 24},
                     .kv_lens = {256, 192},
                     .heads = 6,
                     .kv_heads = 3,
                     .dim = 192,
                     .value_dim = 128,
                     .block = 64,
                     .count = 4,
                     .mask = true,
                     .mask_dtype = ACL_BOOL,
                     .query_view = View::kStepped,
                     .key_view = View::kTransposed,
                     .out_view = View::kStepped,
                     .name = t + "_dim192_mask_without_causal_strided_views"});
    cases.push_back({.dtype = dtype,
                     .q_lens = {16, 45},
                     .kv_lens = {300, 260},
                     .heads = 16,
                     .kv_heads = 1,
                     .dim = 128,
                     .value_dim = 96,
                     .block = 128,
                     .count = 3,
                     .scale = 0.5,
                     .mask = true,
                     .sparse = 2,
                     .query_view = View::kOffset,
                     .out_view = View::kTransposed,
                     .name = t + "_mqa16_block128_causal"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, NsaSelectedAttentionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example (every input 1, every index 2, sparseMode 2 without a
// mask, so nothing masked): outputs of 1, max 192 (D), sum 1024 (16 x 64 keys).
TEST(NsaSelectedAttention, DocExample) {
  const Case c{.q_lens = {512, 512},
               .kv_lens = {2048, 2048},
               .heads = 16,
               .kv_heads = 4,
               .dim = 192,
               .value_dim = 128,
               .block = 64,
               .count = 16,
               .scale = 1.0,
               .sparse = 2};
  Tensors x(c, 1024, 4096);
  for (DeviceTensor* t : {&x.query, &x.key, &x.value}) t->WriteView(Values(static_cast<size_t>(t->numel()), 1.0));
  x.indices.WriteView(Values(static_cast<size_t>(x.indices.numel()), 2.0));
  const OpRun run = RunAttention(c, x, {512, 1024}, {2048, 4096});
  ASSERT_TRUE(run.ok()) << Describe(run);
  for (const Value& v : x.out.ReadView()) ASSERT_EQ(v.real(), 1.0);
  for (const Value& v : x.max.ReadView()) ASSERT_EQ(v.real(), 192.0);
  for (const Value& v : x.sum.ReadView()) ASSERT_EQ(v.real(), 1024.0);
}

// The run of sequences of 10 and 12 tokens over 64 and 48 keys, with index
// `at` of MakeIndices' set to `bad`.
OpRun RunWithIndex(uint64_t seed, size_t at, int64_t bad) {
  const Case c{.q_lens = {10, 12}, .kv_lens = {64, 48}};
  Rng rng(seed);
  Tensors x(c, 22, 112);
  x.query.FillRandom(rng, Range{-1, 1});
  x.key.FillRandom(rng, Range{-1, 1});
  x.value.FillRandom(rng, Range{-1, 1});
  std::vector<int64_t> indices = MakeIndices(c, rng);
  indices[at] = bad;
  x.indices.WriteView(AsValues(indices));
  return RunAttention(c, x, {10, 22}, {64, 112});
}

// A block outside its sequence's keys, found at run time: phase 1 succeeds, the run fails.
TEST(NsaSelectedAttention, IndexOutsideTheKeysFailsTheRun) {
  const Case c;
  for (const int64_t bad : {int64_t{3}, int64_t{-1}}) {  // sequence 1 has blocks 0..2
    const OpRun run = RunWithIndex(7, static_cast<size_t>(15 * c.kv_heads * c.count + 1), bad);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
    EXPECT_NE(run.message.find("topkIndices[15, 0, 1]"), std::string::npos) << Describe(run);
  }
}

// Indices at the ends of INT32 fail the run: a block times its size must not
// wrap into rows of the sequence.
TEST(NsaSelectedAttention, ExtremeIndexFailsTheRun) {
  const Case c;
  for (const int64_t bad : {int64_t{std::numeric_limits<int32_t>::max()}, int64_t{std::numeric_limits<int32_t>::min()},
                            int64_t{std::numeric_limits<int32_t>::max() / 16 + 1}}) {
    const OpRun run = RunWithIndex(5, static_cast<size_t>(3 * c.kv_heads * c.count), bad);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
    EXPECT_NE(run.message.find("topkIndices[3, 0, 0]"), std::string::npos) << Describe(run);
  }
}

// Two streams run the op at once on the same inputs (one cached plan), each
// into its own outputs, several times over: every result is the reference's.
TEST(NsaSelectedAttention, TwoStreamsOnTheSameInputs) {
  const Case c{.dtype = ACL_BF16, .q_lens = {20, 13}, .kv_lens = {48, 32}, .count = 3, .mask = true, .sparse = 2};
  constexpr int kStreams = 2, kRounds = 3;
  Rng rng(23);
  std::vector<std::unique_ptr<Tensors>> sets;
  for (int i = 0; i < kStreams; ++i) sets.push_back(std::make_unique<Tensors>(c, 33, 80));
  Tensors& in = *sets[0];
  const Values q = in.query.FillRandom(rng, Range{-1, 1}), k = in.key.FillRandom(rng, Range{-1, 1});
  const Values v = in.value.FillRandom(rng, Range{-1, 1});
  const std::vector<int64_t> indices = MakeIndices(c, rng);
  in.indices.WriteView(AsValues(indices));
  in.mask = std::make_unique<DeviceTensor>(ACL_UINT8, Shape{20, 48});
  std::vector<aclrtStream> streams(kStreams, nullptr);
  for (aclrtStream& stream : streams) ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<void*> workspaces;
  const std::vector<int64_t> q_ends = PrefixSums(c.q_lens), kv_ends = PrefixSums(c.kv_lens);
  char layout[] = "TND";
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kStreams; ++i) {
      Tensors& out = *sets[static_cast<size_t>(i)];
      if (round == 0) {
        for (DeviceTensor* t : {&out.max, &out.sum, &out.out}) t->Poison();
      }
      OpArgs a;
      uint64_t size = 0;
      aclOpExecutor* executor = nullptr;
      ASSERT_EQ(aclnnNsaSelectedAttentionGetWorkspaceSize(
                    a.Tensor(in.query), a.Tensor(in.key), a.Tensor(in.value), a.Tensor(in.indices), a.Tensor(*in.mask),
                    a.IntArray(q_ends), a.IntArray(kv_ends), Scale(c), c.heads, layout, c.sparse, c.block, c.count,
                    a.Tensor(out.max), a.Tensor(out.sum), a.Tensor(out.out), &size, &executor),
                ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      void* workspace = nullptr;
      if (size > 0) {
        ASSERT_EQ(aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      }
      workspaces.push_back(workspace);
      ASSERT_EQ(aclnnNsaSelectedAttention(workspace, size, executor, streams[static_cast<size_t>(i)]), ACLNN_SUCCESS);
    }
  }
  for (aclrtStream stream : streams) {
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  }
  for (void* workspace : workspaces) {
    if (workspace != nullptr) aclrtFree(workspace);
  }
  const Reference r = Compute(c, q, k, v, indices);
  for (int i = 0; i < kStreams; ++i) {
    Tensors& out = *sets[static_cast<size_t>(i)];
    ExpectNear(out.out.ReadView(), r.out, "attentionOut of stream " + std::to_string(i));
    ExpectSoftmaxStats(out.max, out.sum, r.max, r.sum);
  }
}

// Every output empty (no query token): nothing to do, no workspace.
TEST(NsaSelectedAttention, EmptyOutputsAreANoOp) {
  const Case c;
  Tensors x(c, 0, 64);
  const OpRun run = RunAttention(c, x, {0}, {64});
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0U);
}

// A second call of the same shapes reads the new values and addresses (plan-cache hit).
TEST(NsaSelectedAttention, RepeatedCallUsesNewBuffers) {
  const Case c{.dtype = ACL_BF16, .q_lens = {20, 13}, .kv_lens = {48, 32}, .count = 3, .mask = true, .sparse = 2};
  for (int round = 0; round < 2; ++round) {
    Rng rng(static_cast<uint64_t>(round) + 11);
    Tensors x(c, 33, 80);
    const Values q = x.query.FillRandom(rng, Range{-1, 1}), k = x.key.FillRandom(rng, Range{-1, 1});
    const Values v = x.value.FillRandom(rng, Range{-1, 1});
    const std::vector<int64_t> indices = MakeIndices(c, rng);
    x.indices.WriteView(AsValues(indices));
    x.mask = std::make_unique<DeviceTensor>(ACL_UINT8, Shape{20, 48});
    const OpRun run = RunAttention(c, x, PrefixSums(c.q_lens), PrefixSums(c.kv_lens));
    ASSERT_TRUE(run.ok()) << Describe(run);
    const Reference r = Compute(c, q, k, v, indices);
    ExpectNear(x.out.ReadView(), r.out, "attentionOut");
    ExpectSoftmaxStats(x.max, x.sum, r.max, r.sum);
  }
}

// One call with each argument edited away from a valid one.
struct Call {
  aclDataType q = ACL_FLOAT16, k = ACL_FLOAT16, v = ACL_FLOAT16, indices = ACL_INT32, mask = ACL_UINT8;
  aclDataType max = ACL_FLOAT, sum = ACL_FLOAT, out = ACL_FLOAT16;
  Shape qs = {40, 4, 32}, ks = {64, 2, 32}, vs = {64, 2, 16}, indicess = {40, 2, 2}, masks = {40, 64};
  Shape maxs = {40, 4, 8}, sums = {40, 4, 8}, outs = {40, 4, 16};
  bool null_mask = false, null_q_ends = false, null_kv_ends = false;
  std::vector<int64_t> q_ends = {40}, kv_ends = {64};
  int64_t heads = 4, sparse = 2, block = 16, count = 2;
  std::string layout = "TND";
};

OpRun RunCall(const Call& c) {
  std::string layout = c.layout;
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaSelectedAttentionGetWorkspaceSize(
            a.NewTensor(c.q, c.qs), a.NewTensor(c.k, c.ks), a.NewTensor(c.v, c.vs),
            a.NewTensorIn(Range{0, 3, 0, 0, true}, c.indices, c.indicess),
            c.null_mask ? nullptr : a.NewTensorIn(Range{0, 1}, c.mask, c.masks),
            c.null_q_ends ? nullptr : a.IntArray(c.q_ends), c.null_kv_ends ? nullptr : a.IntArray(c.kv_ends), 0.125,
            c.heads, layout.data(), c.sparse, c.block, c.count, a.NewTensor(c.max, c.maxs), a.NewTensor(c.sum, c.sums),
            a.NewTensor(c.out, c.outs), w, e);
      },
      aclnnNsaSelectedAttention);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(NsaSelectedAttentionRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const auto run = [](auto edit) { return RunCall(With(edit)); };
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(run([](Call& c) { c.null_mask = true; }).ok());
  EXPECT_TRUE(run([](Call& c) { c.sparse = 0; }).ok());
  EXPECT_TRUE(run([](Call& c) { c.masks = {1, 1}; }).ok());  // no mask value is read
  EXPECT_TRUE(run([](Call& c) {
                c.qs = {0, 4, 32};
                c.indicess = {0, 2, 2};
                c.maxs = c.sums = {0, 4, 8};
                c.outs = {0, 4, 16};
                c.layout = "BSND";  // every output empty: nothing is checked
              }).ok());
  ExpectRejectedWith(run([](Call& c) { c.null_q_ends = true; }), ACLNN_ERR_PARAM_NULLPTR, {"actualSeqQLenOptional"});
  ExpectRejectedWith(run([](Call& c) { c.null_kv_ends = true; }), ACLNN_ERR_PARAM_NULLPTR, {"actualSeqKvLenOptional"});
  // The host checks (161002).
  ExpectRejectedWith(run([](Call& c) { c.layout = "BSND"; }), kInvalid, {"'inputLayout'"});
  ExpectRejectedWith(run([](Call& c) { c.qs = {40, 4, 8, 4}; }), kInvalid, {"'query'", "rank"});
  ExpectRejectedWith(run([](Call& c) { c.vs = {64, 2, 16, 1}; }), kInvalid, {"'value'", "rank"});
  ExpectRejectedWith(run([](Call& c) { c.ks = {64, 2, 48}; }), kInvalid, {"head dims"});
  ExpectRejectedWith(run([](Call& c) {
                       c.vs = {64, 2, 48};
                       c.outs = {40, 4, 48};
                     }),
                     kInvalid, {"head dims"});
  ExpectRejectedWith(run([](Call& c) {
                       c.qs = {40, 4, 784};
                       c.ks = {64, 2, 784};
                     }),
                     kInvalid, {"head dim 784"});
  ExpectRejectedWith(run([](Call& c) {
                       c.q_ends = std::vector<int64_t>(3073, 40);
                       c.kv_ends = std::vector<int64_t>(3073, 64);
                     }),
                     kInvalid, {"3072"});
  ExpectRejectedWith(run([](Call& c) {
                       c.ks = {64, 0, 32};
                       c.vs = {64, 0, 16};
                       c.indicess = {40, 0, 2};
                     }),
                     kInvalid, {"head count"});
  ExpectRejectedWith(run([](Call& c) { c.q = c.k = c.v = c.out = ACL_FLOAT; }), kInvalid, {"'query'"});
  ExpectRejectedWith(run([](Call& c) { c.k = ACL_BF16; }), kInvalid, {"'key'"});
  ExpectRejectedWith(run([](Call& c) { c.v = ACL_BF16; }), kInvalid, {"'value'"});
  ExpectRejectedWith(run([](Call& c) { c.out = ACL_BF16; }), kInvalid, {"'attentionOut'"});
  ExpectRejectedWith(run([](Call& c) { c.indices = ACL_INT64; }), kInvalid, {"topkIndices"});
  ExpectRejectedWith(run([](Call& c) { c.mask = ACL_INT8; }), kInvalid, {"attenMaskOptional"});
  ExpectRejectedWith(run([](Call& c) { c.max = ACL_FLOAT16; }), kInvalid, {"softmaxMaxOut"});
  ExpectRejectedWith(run([](Call& c) { c.sum = ACL_BF16; }), kInvalid, {"softmaxSumOut"});
  // CANN's tiling checks (561002).
  ExpectRejectedWith(run([](Call& c) { c.block = 24; }), kTiling, {"'selectedBlockSize'"});
  ExpectRejectedWith(run([](Call& c) { c.block = 144; }), kTiling, {"'selectedBlockSize'"});
  ExpectRejectedWith(run([](Call& c) { c.block = 0; }), kTiling, {"'selectedBlockSize'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.count = 33;
                       c.indicess = {40, 2, 33};
                     }),
                     kTiling, {"'selectedBlockCount'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.count = 0;
                       c.indicess = {40, 2, 0};
                     }),
                     kTiling, {"'selectedBlockCount'"});
  ExpectRejectedWith(run([](Call& c) { c.heads = 0; }), kTiling, {"'headNum'"});
  ExpectRejectedWith(run([](Call& c) { c.sparse = 1; }), kTiling, {"'sparseMode'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.null_mask = true;
                       c.sparse = 3;
                     }),
                     kTiling, {"'sparseMode'"});
  ExpectRejectedWith(run([](Call& c) { c.indicess = {40, 2}; }), kTiling, {"'topkIndices'", "rank"});
  ExpectRejectedWith(run([](Call& c) { c.indicess = {40, 2, 3}; }), kTiling, {"'topkIndices'", "last dim"});
  ExpectRejectedWith(run([](Call& c) { c.kv_ends = {32, 64}; }), kTiling, {"same sequences"});
  ExpectRejectedWith(run([](Call& c) {
                       c.q_ends = std::vector<int64_t>(1025, 40);
                       c.kv_ends = std::vector<int64_t>(1025, 64);
                     }),
                     kTiling, {"1024"});
  ExpectRejectedWith(run([](Call& c) { c.q_ends = {41}; }), kTiling, {"actualSeqQLenOptional"});
  ExpectRejectedWith(run([](Call& c) { c.kv_ends = {65}; }), kTiling, {"actualSeqKvLenOptional"});
  ExpectRejectedWith(run([](Call& c) {
                       c.qs = {40, 1, 32};
                       c.maxs = c.sums = {40, 1, 8};
                       c.outs = {40, 1, 16};
                       c.heads = 1;
                     }),
                     kTiling, {"at least key's"});
  ExpectRejectedWith(run([](Call& c) { c.heads = 3; }), kTiling, {"'headNum'", "multiple"});
  ExpectRejectedWith(run([](Call& c) { c.masks = {40, 64, 1}; }), kTiling, {"'attenMaskOptional'", "rank"});
  // What the kernel relies on (161002).
  ExpectRejectedWith(run([](Call& c) { c.vs = {63, 2, 16}; }), kInvalid, {"'value'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.qs = {40, 3, 32};
                       c.maxs = c.sums = {40, 3, 8};
                       c.outs = {40, 3, 16};
                       c.heads = 2;
                     }),
                     kInvalid, {"multiple"});
  ExpectRejectedWith(run([](Call& c) { c.indicess = {40, 1, 2}; }), kInvalid, {"'topkIndices'"});
  ExpectRejectedWith(run([](Call& c) { c.maxs = {40, 4, 1}; }), kInvalid, {"'softmaxMaxOut'"});
  ExpectRejectedWith(run([](Call& c) { c.sums = {40, 4, 8, 1}; }), kInvalid, {"'softmaxSumOut'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.heads = 8;
                       c.maxs = c.sums = {40, 8, 8};
                     }),
                     kInvalid, {"'headNum'"});
  ExpectRejectedWith(run([](Call& c) { c.outs = {40, 4, 32}; }), kInvalid, {"'attentionOut'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.q_ends = {30, 20};
                       c.kv_ends = {32, 64};
                     }),
                     kInvalid, {"prefix sums"});
}

}  // namespace
}  // namespace canopy_test
