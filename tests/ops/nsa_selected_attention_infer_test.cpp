// aclnnNsaSelectedAttentionInfer against a float64 reference: token s of a
// sequence's q_len tokens sees its first kv_len - (q_len - 1 - s) keys, read
// from a paged cache through the block table; its keys and values are the
// positions of the select blocks its topkIndices row names (-1: none) that it
// sees; softmax(scale * q k^T) times the values. f16 and bf16, layouts BSND,
// BSH and TND, one to four tokens per sequence, GQA, tail blocks and empty
// selections, strided views, an empty output, indices and pages outside the
// cache failing the run, the doc's example, and every rejection with its code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "aclnnop/aclnn_nsa_selected_attention_infer.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kDim = 192, kValueDim = 128;

enum class Layout { kBsnd, kBsh, kTnd };

struct Case {
  aclDataType dtype = ACL_FLOAT16;
  Layout layout = Layout::kBsnd;
  std::vector<int64_t> q_lens = {1, 1}, kv_lens = {100, 37};
  int64_t s1 = 1;  // BSND / BSH: query's S
  int64_t heads = 4, kv_heads = 2, select_block = 32, count = 3, page = 64;
  double none_share = 0;  // share of -1 indices
  View query_view = View::kContiguous, out_view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

double Scale() { return 1.0 / std::sqrt(static_cast<double>(kDim)); }
int64_t Batch(const Case& c) { return static_cast<int64_t>(c.q_lens.size()); }
int64_t Tokens(const Case& c) { return std::accumulate(c.q_lens.begin(), c.q_lens.end(), int64_t{0}); }
int64_t Rows(const Case& c) { return c.layout == Layout::kTnd ? Tokens(c) : Batch(c) * c.s1; }
int64_t PagesPerBatch(const Case& c) { return (MaxOf(c.kv_lens) + c.page - 1) / c.page + 1; }
int64_t Pages(const Case& c) { return Batch(c) * PagesPerBatch(c) + 2; }

Shape QueryShape(const Case& c, int64_t dim) {
  if (c.layout == Layout::kTnd) return {Tokens(c), c.heads, dim};
  if (c.layout == Layout::kBsh) return {Batch(c), c.s1, c.heads * dim};
  return {Batch(c), c.s1, c.heads, dim};
}

Shape CacheShape(const Case& c, int64_t dim) {
  if (c.layout == Layout::kBsnd) return {Pages(c), c.page, c.kv_heads, dim};
  return {Pages(c), c.page, c.kv_heads * dim};
}

Shape IndicesShape(const Case& c) {
  if (c.layout == Layout::kTnd) return {Tokens(c), c.kv_heads, c.count};
  return {Batch(c), c.s1, c.kv_heads, c.count};
}

std::string LayoutName(const Case& c) {
  return c.layout == Layout::kTnd ? "TND" : (c.layout == Layout::kBsh ? "BSH" : "BSND");
}

// Each sequence's query row of token 0.
std::vector<int64_t> RowStarts(const Case& c) {
  std::vector<int64_t> starts;
  int64_t t = 0;
  for (int64_t b = 0; b < Batch(c); ++b) {
    starts.push_back(c.layout == Layout::kTnd ? t : b * c.s1);
    t += c.q_lens[static_cast<size_t>(b)];
  }
  return starts;
}

// Distinct blocks of the sequence in random order, some -1; rows of no token hold a value the op must not read.
std::vector<int64_t> MakeIndices(const Case& c, Rng& rng) {
  std::vector<int64_t> indices(static_cast<size_t>(Rows(c) * c.kv_heads * c.count), 1 << 20);
  const std::vector<int64_t> starts = RowStarts(c);
  for (int64_t b = 0; b < Batch(c); ++b) {
    const int64_t blocks = (c.kv_lens[static_cast<size_t>(b)] + c.select_block - 1) / c.select_block;
    for (int64_t s = 0; s < c.q_lens[static_cast<size_t>(b)]; ++s) {
      for (int64_t n = 0; n < c.kv_heads; ++n) {
        std::vector<int64_t> order(static_cast<size_t>(blocks));
        std::iota(order.begin(), order.end(), 0);
        for (size_t i = order.size(); i > 1; --i) {
          std::swap(order[i - 1], order[static_cast<size_t>(rng.Uniform(0, static_cast<double>(i) - 1e-9))]);
        }
        for (int64_t i = 0; i < c.count; ++i) {
          const bool none = i >= blocks || rng.Uniform(0, 1) < c.none_share;
          indices[static_cast<size_t>(((starts[static_cast<size_t>(b)] + s) * c.kv_heads + n) * c.count + i)] =
              none ? -1 : order[static_cast<size_t>(i)];
        }
      }
    }
  }
  return indices;
}

// Each sequence's pages: distinct pages of the cache in random order.
std::vector<int64_t> MakeTable(const Case& c, Rng& rng) {
  std::vector<int64_t> pages(static_cast<size_t>(Pages(c)));
  std::iota(pages.begin(), pages.end(), 0);
  for (size_t i = pages.size(); i > 1; --i) {
    std::swap(pages[i - 1], pages[static_cast<size_t>(rng.Uniform(0, static_cast<double>(i) - 1e-9))]);
  }
  pages.resize(static_cast<size_t>(Batch(c) * PagesPerBatch(c)));
  return pages;
}

Expected Compute(const Case& c, const Values& q, const Values& k, const Values& v, const std::vector<int64_t>& indices,
                 const std::vector<int64_t>& table) {
  const int64_t groups = c.heads / c.kv_heads;
  Values out(static_cast<size_t>(Rows(c) * c.heads * kValueDim), 0.0);
  std::vector<double> magnitude(out.size(), 0.0);
  const std::vector<int64_t> starts = RowStarts(c);
  for (int64_t b = 0; b < Batch(c); ++b) {
    const int64_t q_len = c.q_lens[static_cast<size_t>(b)], kv_len = c.kv_lens[static_cast<size_t>(b)];
    for (int64_t s = 0; s < q_len; ++s) {
      const int64_t row = starts[static_cast<size_t>(b)] + s, visible = kv_len - (q_len - 1 - s);
      for (int64_t group = 0; group < c.kv_heads; ++group) {
        std::vector<int64_t> cache_rows;  // the keys' rows of the [pages * page, N2, D] cache
        for (int64_t i = 0; i < c.count; ++i) {
          const int64_t block = indices[static_cast<size_t>((row * c.kv_heads + group) * c.count + i)];
          for (int64_t at = block * c.select_block; block >= 0 && at < (block + 1) * c.select_block && at < visible;
               ++at) {
            const int64_t page = table[static_cast<size_t>(b * PagesPerBatch(c) + at / c.page)];
            cache_rows.push_back(page * c.page + at % c.page);
          }
        }
        for (int64_t g = 0; g < groups && !cache_rows.empty(); ++g) {
          const int64_t n = group * groups + g;
          std::vector<double> x;
          double max = -INFINITY;
          for (const int64_t r : cache_rows) {
            double dot = 0;
            for (int64_t i = 0; i < kDim; ++i) {
              dot += q[static_cast<size_t>((row * c.heads + n) * kDim + i)].real() *
                     k[static_cast<size_t>((r * c.kv_heads + group) * kDim + i)].real();
            }
            x.push_back(dot * Scale());
            max = std::max(max, x.back());
          }
          double sum = 0;
          for (double& e : x) sum += (e = std::exp(e - max));
          for (size_t j = 0; j < cache_rows.size(); ++j) {
            for (int64_t i = 0; i < kValueDim; ++i) {
              const double term =
                  x[j] / sum * v[static_cast<size_t>((cache_rows[j] * c.kv_heads + group) * kValueDim + i)].real();
              const auto at = static_cast<size_t>((row * c.heads + n) * kValueDim + i);
              out[at] += term;
              magnitude[at] += std::abs(term);
            }
          }
        }
      }
    }
  }
  return RelativeTolerance(out, c.dtype, 4, magnitude);
}

struct Tensors {
  DeviceTensor query, key, value, indices, table, out;
  explicit Tensors(const Case& c)
      : query(c.dtype, QueryShape(c, kDim), c.query_view),
        key(c.dtype, CacheShape(c, kDim)),
        value(c.dtype, CacheShape(c, kValueDim)),
        indices(ACL_INT32, IndicesShape(c)),
        table(ACL_INT32, {Batch(c), PagesPerBatch(c)}),
        out(c.dtype, QueryShape(c, kValueDim), c.out_view) {}
};

OpRun RunInfer(const Case& c, Tensors& x) {
  std::string layout = LayoutName(c);
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaSelectedAttentionInferGetWorkspaceSize(
            a.Tensor(x.query), a.Tensor(x.key), a.Tensor(x.value), a.Tensor(x.indices), nullptr, a.Tensor(x.table),
            a.IntArray(c.q_lens), a.IntArray(c.kv_lens), layout.data(), c.heads, c.kv_heads, c.select_block, c.count,
            c.page, Scale(), 0, a.Tensor(x.out), w, e);
      },
      aclnnNsaSelectedAttentionInfer);
}

Values AsValues(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }

class NsaSelectedAttentionInferTest : public ::testing::TestWithParam<Case> {};

TEST_P(NsaSelectedAttentionInferTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Tensors x(c);
  const Values q = x.query.FillRandom(rng, Range{-1, 1}), k = x.key.FillRandom(rng, Range{-1, 1});
  const Values v = x.value.FillRandom(rng, Range{-1, 1});
  const std::vector<int64_t> indices = MakeIndices(c, rng), table = MakeTable(c, rng);
  x.indices.WriteView(AsValues(indices));
  x.table.WriteView(AsValues(table));
  x.out.Poison();
  const std::vector<uint8_t> out_before = x.out.DownloadBytes();
  const OpRun run = RunInfer(c, x);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(x.out.ReadView(), Compute(c, q, k, v, indices, table), "output");
  ExpectOutsideViewUnchanged(x.out, out_before, "output");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_bsnd_one_token"});
    cases.push_back({.dtype = dtype,
                     .layout = Layout::kTnd,
                     .q_lens = {1, 3, 4, 2},
                     .kv_lens = {20, 97, 130, 4},
                     .heads = 8,
                     .kv_heads = 2,
                     .select_block = 16,
                     .count = 5,
                     .page = 128,
                     .none_share = 0.2,
                     .name = t + "_tnd_several_tokens_tails_and_none"});
    cases.push_back({.dtype = dtype,
                     .layout = Layout::kBsh,
                     .q_lens = {2, 4, 1},
                     .kv_lens = {64, 200, 9},
                     .s1 = 4,
                     .heads = 16,
                     .kv_heads = 1,
                     .select_block = 128,
                     .count = 2,
                     .query_view = View::kStepped,
                     .out_view = View::kStepped,
                     .name = t + "_bsh_gqa16_block128_rows_past_strided"});
    cases.push_back({.dtype = dtype,
                     .layout = Layout::kBsnd,
                     .q_lens = {3, 2},
                     .kv_lens = {150, 70},
                     .s1 = 3,
                     .heads = 6,
                     .kv_heads = 3,
                     .select_block = 48,
                     .count = 4,
                     .none_share = 0.3,
                     .query_view = View::kOffset,
                     .out_view = View::kTransposed,
                     .name = t + "_bsnd_several_tokens_views"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, NsaSelectedAttentionInferTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example (BSND, one sequence of 48 keys in page 0, index 0 and -1,
// every stored value the f16 bit pattern 1): the output is that value.
TEST(NsaSelectedAttentionInfer, DocExample) {
  const Case c{.q_lens = {1}, .kv_lens = {48}, .heads = 1, .kv_heads = 1, .select_block = 64, .count = 1};
  DeviceTensor query(ACL_FLOAT16, {1, 1, 1, kDim}), key(ACL_FLOAT16, {1, 64, 1, kDim});
  DeviceTensor value(ACL_FLOAT16, {1, 64, 1, kValueDim}), indices(ACL_INT32, {1, 1, 1, 1});
  DeviceTensor table(ACL_INT32, {1, 1}), out(ACL_FLOAT16, {1, 1, 1, kValueDim});
  for (DeviceTensor* t : {&query, &key, &value}) {
    t->UploadBytes(std::vector<uint8_t>(t->bytes(), 0));
    std::vector<uint8_t> bytes(t->bytes(), 0);
    for (size_t i = 0; i < bytes.size(); i += 2) bytes[i] = 1;  // int16 1, as the example writes
    t->UploadBytes(bytes);
  }
  indices.WriteView({0.0});
  table.WriteView({0.0});
  std::string layout = "BSND";
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaSelectedAttentionInferGetWorkspaceSize(
            a.Tensor(query), a.Tensor(key), a.Tensor(value), a.Tensor(indices), nullptr, a.Tensor(table),
            a.IntArray(c.q_lens), a.IntArray(c.kv_lens), layout.data(), 1, 1, 64, 1, 64, 1.0, 0, a.Tensor(out), w, e);
      },
      aclnnNsaSelectedAttentionInfer);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const std::vector<uint8_t> got = out.DownloadBytes();
  for (size_t i = 0; i < got.size(); i += 2) ASSERT_EQ(got[i] | (got[i + 1] << 8), 1) << i;
}

TEST(NsaSelectedAttentionInfer, IndexOrPageOutsideFailsTheRun) {
  const Case c{.layout = Layout::kTnd, .q_lens = {2, 1}, .kv_lens = {100, 37}};
  for (int edit = 0; edit < 3; ++edit) {
    Rng rng(9);
    Tensors x(c);
    x.query.FillRandom(rng, Range{-1, 1});
    std::vector<int64_t> indices = MakeIndices(c, rng), table = MakeTable(c, rng);
    if (edit == 0) indices[static_cast<size_t>((2 * c.kv_heads + 1) * c.count)] = 2;  // sequence 1 has blocks 0, 1
    if (edit == 1) indices[1] = -2;
    if (edit == 2) table[static_cast<size_t>(PagesPerBatch(c))] = static_cast<int64_t>(Pages(c));
    x.indices.WriteView(AsValues(indices));
    x.table.WriteView(AsValues(table));
    const OpRun run = RunInfer(c, x);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
    EXPECT_NE(run.message.find(edit == 2 ? "blockTableOptional[1, 0]" : "topkIndices"), std::string::npos)
        << Describe(run);
  }
}

// Indices and pages at the ends of INT32 fail the run (no overflow of a block
// or page times its size into a valid-looking row).
TEST(NsaSelectedAttentionInfer, ExtremeIndexOrPageFailsTheRun) {
  const Case c{.layout = Layout::kTnd, .q_lens = {2, 1}, .kv_lens = {100, 37}};
  const int64_t extremes[] = {std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()};
  for (int edit = 0; edit < 4; ++edit) {
    Rng rng(13);
    Tensors x(c);
    x.query.FillRandom(rng, Range{-1, 1});
    std::vector<int64_t> indices = MakeIndices(c, rng), table = MakeTable(c, rng);
    if (edit < 2) indices[static_cast<size_t>(c.count)] = extremes[edit];
    if (edit >= 2) table[1] = extremes[edit - 2];  // sequence 0's second page (keys 64..99)
    x.indices.WriteView(AsValues(indices));
    x.table.WriteView(AsValues(table));
    const OpRun run = RunInfer(c, x);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
    EXPECT_NE(run.message.find(edit >= 2 ? "blockTableOptional[0, 1]" : "topkIndices"), std::string::npos)
        << Describe(run);
  }
}

// Block-table entries past a sequence's keys are never read: garbage there
// (negative, past the cache, INT32's ends) changes nothing.
TEST(NsaSelectedAttentionInfer, TableEntriesPastTheKeysAreNotRead) {
  const Case c{.layout = Layout::kTnd, .q_lens = {2, 1, 3}, .kv_lens = {100, 37, 190}};
  Rng rng(17);
  Tensors x(c);
  const Values q = x.query.FillRandom(rng, Range{-1, 1}), k = x.key.FillRandom(rng, Range{-1, 1});
  const Values v = x.value.FillRandom(rng, Range{-1, 1});
  const std::vector<int64_t> indices = MakeIndices(c, rng);
  std::vector<int64_t> table = MakeTable(c, rng);
  const int64_t garbage[] = {-1, Pages(c), std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()};
  for (int64_t b = 0; b < Batch(c); ++b) {
    for (int64_t p = (c.kv_lens[static_cast<size_t>(b)] + c.page - 1) / c.page; p < PagesPerBatch(c); ++p) {
      table[static_cast<size_t>(b * PagesPerBatch(c) + p)] = garbage[(b + p) % 4];
    }
  }
  x.indices.WriteView(AsValues(indices));
  x.table.WriteView(AsValues(table));
  x.out.Poison();
  const OpRun run = RunInfer(c, x);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(x.out.ReadView(), Compute(c, q, k, v, indices, table), "output");
}

TEST(NsaSelectedAttentionInfer, EmptyOutputIsANoOp) {
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        char layout[] = "BSND";
        return aclnnNsaSelectedAttentionInferGetWorkspaceSize(
            a.NewTensor(ACL_FLOAT16, {0, 1, 4, kDim}), a.NewTensor(ACL_FLOAT16, {2, 64, 2, kDim}),
            a.NewTensor(ACL_FLOAT16, {2, 64, 2, kValueDim}), a.NewTensor(ACL_INT32, {0, 1, 2, 2}), nullptr,
            a.NewTensor(ACL_INT32, {0, 1}), a.IntArray({}), a.IntArray({}), layout, 4, 2, 32, 2, 64, 0.1, 0,
            a.NewTensor(ACL_FLOAT16, {0, 1, 4, kValueDim}), w, e);
      },
      aclnnNsaSelectedAttentionInfer);
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0U);
}

// One call with each argument edited away from a valid one (BSND).
struct Call {
  aclDataType q = ACL_FLOAT16, k = ACL_FLOAT16, v = ACL_FLOAT16, indices = ACL_INT32, table = ACL_INT32,
              out = ACL_FLOAT16;
  Shape qs = {2, 1, 4, kDim}, ks = {4, 64, 2, kDim}, vs = {4, 64, 2, kValueDim}, indicess = {2, 1, 2, 2};
  Shape tables = {2, 2}, outs = {2, 1, 4, kValueDim};
  std::vector<int64_t> q_lens = {1, 1}, kv_lens = {64, 40};
  int64_t heads = 4, kv_heads = 2, select = 32, count = 2, page = 64;
  std::string layout = "BSND";
};

OpRun RunCall(const Call& c) {
  std::string layout = c.layout;
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaSelectedAttentionInferGetWorkspaceSize(
            a.NewTensor(c.q, c.qs), a.NewTensor(c.k, c.ks), a.NewTensor(c.v, c.vs),
            a.NewTensorIn(Range{0, 1, 0, 0, true}, c.indices, c.indicess), nullptr,
            a.NewTensorIn(Range{0, 3, 0, 0, true}, c.table, c.tables), a.IntArray(c.q_lens), a.IntArray(c.kv_lens),
            layout.data(), c.heads, c.kv_heads, c.select, c.count, c.page, 0.07, 0, a.NewTensor(c.out, c.outs), w, e);
      },
      aclnnNsaSelectedAttentionInfer);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(NsaSelectedAttentionInferRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const auto run = [](auto edit) { return RunCall(With(edit)); };
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(run([](Call& c) {
                c.layout = "TND";
                c.qs = {2, 4, kDim};
                c.ks = {4, 64, 2 * kDim};
                c.vs = {4, 64, 2 * kValueDim};
                c.indicess = {2, 2, 2};
                c.outs = {2, 4, kValueDim};
              }).ok());
  EXPECT_TRUE(run([](Call& c) {
                c.layout = "BSH";
                c.qs = {2, 1, 4 * kDim};
                c.ks = {4, 64, 2 * kDim};
                c.vs = {4, 64, 2 * kValueDim};
                c.outs = {2, 1, 4 * kValueDim};
              }).ok());
  // The host checks (161002; the head counts 561103).
  ExpectRejectedWith(run([](Call& c) { c.layout = "BNSD"; }), kInvalid, {"'layoutOptional'"});
  ExpectRejectedWith(run([](Call& c) { c.kv_heads = 0; }), ACLNN_ERR_INNER_NULLPTR, {"'numKeyValueHeads'"});
  ExpectRejectedWith(run([](Call& c) { c.heads = 5; }), ACLNN_ERR_INNER_NULLPTR, {"'numHeads'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.heads = 34;
                       c.kv_heads = 2;
                     }),
                     ACLNN_ERR_INNER_NULLPTR, {"16"});
  ExpectRejectedWith(run([](Call& c) { c.q = c.k = c.v = c.out = ACL_FLOAT; }), kInvalid, {"'query'"});
  ExpectRejectedWith(run([](Call& c) { c.k = ACL_BF16; }), kInvalid, {"'key'"});
  ExpectRejectedWith(run([](Call& c) { c.v = ACL_BF16; }), kInvalid, {"'value'"});
  ExpectRejectedWith(run([](Call& c) { c.indices = ACL_INT64; }), kInvalid, {"'topkIndices'"});
  ExpectRejectedWith(run([](Call& c) { c.qs = {2, 1, 4 * kDim}; }), kInvalid, {"'query'", "rank"});
  ExpectRejectedWith(run([](Call& c) { c.ks = {4, 64, 2 * kDim}; }), kInvalid, {"'key'", "rank"});
  ExpectRejectedWith(run([](Call& c) { c.ks = {4, 64, 2, 128}; }), kInvalid, {"head dims"});
  ExpectRejectedWith(run([](Call& c) {
                       c.qs = {2, 1, 4, 128};
                       c.ks = {4, 64, 2, 128};
                     }),
                     kInvalid, {"must be 192"});
  ExpectRejectedWith(run([](Call& c) {
                       c.vs = {4, 64, 2, 64};
                       c.outs = {2, 1, 4, 64};
                     }),
                     kInvalid, {"128"});
  ExpectRejectedWith(run([](Call& c) {
                       c.q_lens = std::vector<int64_t>(3073, 1);
                       c.kv_lens = std::vector<int64_t>(3073, 40);
                     }),
                     kInvalid, {"3072"});
  ExpectRejectedWith(run([](Call& c) { c.vs = {0, 64, 2, kValueDim}; }), kInvalid, {"empty"});
  // The tiling's (561002).
  ExpectRejectedWith(run([](Call& c) { c.count = 3; }), kTiling, {"'topkIndices'", "selectBlockCount"});
  ExpectRejectedWith(run([](Call& c) { c.indicess = {2, 2, 2}; }), kTiling, {"'topkIndices'", "rank"});
  ExpectRejectedWith(run([](Call& c) {
                       c.heads = -4;
                       c.kv_heads = -2;
                     }),
                     kTiling, {"at least 1"});
  ExpectRejectedWith(run([](Call& c) { c.kv_lens = {64}; }), kTiling, {"'actualKvSeqLenOptional'"});
  ExpectRejectedWith(run([](Call& c) { c.q_lens = {1, 0}; }), kTiling, {"query tokens"});
  ExpectRejectedWith(run([](Call& c) {
                       c.q_lens = {5, 1};
                       c.qs = {2, 5, 4, kDim};
                     }),
                     kTiling, {"query tokens"});
  ExpectRejectedWith(run([](Call& c) { c.kv_lens = {64, 0}; }), kTiling, {"at least as many keys"});
  ExpectRejectedWith(run([](Call& c) {
                       c.heads = 2;
                       c.kv_heads = 1;
                       c.ks = {4, 64, 1, kDim};
                       c.vs = {4, 64, 1, kValueDim};
                     }),
                     kTiling, {"'numHeads'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.qs = {2, 5, 4, kDim};
                       c.indicess = {2, 5, 2, 2};
                       c.outs = {2, 5, 4, kValueDim};
                     }),
                     kTiling, {"query's S"});
  ExpectRejectedWith(run([](Call& c) { c.tables = {2, 0}; }), kTiling, {"'blockTableOptional'"});
  ExpectRejectedWith(run([](Call& c) { c.outs = {2, 4, kValueDim}; }), kTiling, {"'output'", "rank"});
  ExpectRejectedWith(run([](Call& c) { c.page = 32; }), kTiling, {"'pageBlockSize'"});
  ExpectRejectedWith(run([](Call& c) { c.select = 40; }), kTiling, {"'selectBlockSize'"});
  ExpectRejectedWith(run([](Call& c) { c.select = 144; }), kTiling, {"'selectBlockSize'"});
  ExpectRejectedWith(run([](Call& c) { c.select = 0; }), kTiling, {"'selectBlockSize'"});
  ExpectRejectedWith(run([](Call& c) {
                       c.heads = c.kv_heads = 257;
                       c.qs = {2, 1, 257, kDim};
                       c.outs = {2, 1, 257, kValueDim};
                     }),
                     kTiling, {"'numKeyValueHeads'"});
  ExpectRejectedWith(run([](Call& c) { c.out = ACL_BF16; }), kTiling, {"'output'"});
  ExpectRejectedWith(run([](Call& c) { c.kv_lens = {64, 129}; }), kTiling, {"covers"});
  // What the kernel relies on (161002).
  ExpectRejectedWith(run([](Call& c) { c.table = ACL_INT64; }), kInvalid, {"'blockTableOptional'"});
  ExpectRejectedWith(run([](Call& c) { c.ks = {4, 32, 2, kDim}; }), kInvalid, {"pageBlockSize"});
  ExpectRejectedWith(run([](Call& c) { c.vs = {3, 64, 2, kValueDim}; }), kInvalid, {"same pages"});
  ExpectRejectedWith(run([](Call& c) { c.tables = {1, 2}; }), kInvalid, {"one per sequence"});
  ExpectRejectedWith(run([](Call& c) { c.q_lens = {2, 1}; }), kInvalid, {"query's S"});
  ExpectRejectedWith(run([](Call& c) {
                       c.layout = "TND";
                       c.q_lens = {2, 2};
                       c.qs = {3, 4, kDim};
                       c.ks = {4, 64, 2 * kDim};
                       c.vs = {4, 64, 2 * kValueDim};
                       c.indicess = {3, 2, 2};
                       c.outs = {3, 4, kValueDim};
                     }),
                     kInvalid, {"tokens"});
  ExpectRejectedWith(run([](Call& c) { c.indicess = {2, 1, 1, 2}; }), kInvalid, {"'topkIndices'"});
  ExpectRejectedWith(run([](Call& c) { c.outs = {2, 1, 4, 64}; }), kInvalid, {"'output'"});
}

}  // namespace
}  // namespace canopy_test
