// aclnnMoeTokenUnpermuteWithEp against a float64 reference: with rangeOptional
// [start, end], out[i] = sum_j probs[i, j] * permutedTokens[v - start] over the
// slots i * numTopk + j whose sortedIndices value v is in the range and whose
// prob is not 0 (the others add nothing, an infinite row they name included);
// without probs the plain sum over numTopk slots; without a range
// MoeTokenUnpermute. Every dtype and probs dtype, strided views, the doc's
// example, MoeTokenPermuteWithEp's output undone, no tokens, an index past
// permutedTokens and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_moe_token_permute_with_ep.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_ep.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT, probs_dtype = ACL_FLOAT;
  int64_t tokens = 7, k = 3, h = 10;
  bool probs = true, range = true;
  int64_t start = 4, end = 15;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

// permutedTokens holds the rows of positions [start, end) (all slots without a range).
int64_t PermutedRows(const Case& c) { return c.range ? c.end - c.start : c.tokens * c.k; }

struct Data {
  std::unique_ptr<DeviceTensor> permuted, indices, probs, out;
  Values tv, pv;
  std::vector<int64_t> index;
};

Data Make(const Case& c, Rng& rng) {
  Data d;
  const int64_t slots = c.tokens * c.k;
  d.permuted = std::make_unique<DeviceTensor>(c.dtype, Shape{PermutedRows(c), c.h}, c.view);
  d.tv = d.permuted->FillRandom(rng, Range{-3, 3});
  d.index.resize(static_cast<size_t>(slots));  // a permutation of the positions, as MoeTokenPermute's
  std::iota(d.index.begin(), d.index.end(), 0);
  for (size_t i = d.index.size(); i > 1; --i) {
    std::swap(d.index[i - 1], d.index[static_cast<size_t>(rng.Uniform(0, static_cast<double>(i)))]);
  }
  d.indices = std::make_unique<DeviceTensor>(ACL_INT32, Shape{slots}, c.view);
  d.indices->WriteView(Values(d.index.begin(), d.index.end()));
  if (c.probs) {
    d.probs = std::make_unique<DeviceTensor>(c.probs_dtype, Shape{c.tokens, c.k}, c.view);
    d.pv = d.probs->FillRandom(rng, Range{0, 1});
  }
  d.out = std::make_unique<DeviceTensor>(c.dtype, Shape{c.tokens, c.h}, c.view);
  d.out->Poison();
  return d;
}

OpRun RunWithEp(const Case& c, Data& d, int64_t num_topk, bool padded = false) {
  const auto t = [](OpArgs& a, const std::unique_ptr<DeviceTensor>& p) { return p ? a.Tensor(*p) : nullptr; };
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize(t(a, d.permuted), t(a, d.indices), t(a, d.probs), num_topk,
                                                            c.range ? a.IntArray({c.start, c.end}) : nullptr, padded,
                                                            nullptr, t(a, d.out), w, e);
      },
      aclnnMoeTokenUnpermuteWithEp);
}
OpRun RunWithEp(const Case& c, Data& d) { return RunWithEp(c, d, c.k); }

void Check(const Case& c, const Data& d) {
  const int64_t start = c.range ? c.start : 0, end = c.range ? c.end : c.tokens * c.k;
  Values want;
  std::vector<double> scale;
  for (int64_t i = 0; i < c.tokens; ++i) {
    std::vector<double> sum(static_cast<size_t>(c.h), 0.0), magnitude(static_cast<size_t>(c.h), 0.0);
    for (int64_t j = 0; j < c.k; ++j) {
      const int64_t v = d.index[static_cast<size_t>(i * c.k + j)];
      const double p = c.probs ? d.pv[static_cast<size_t>(i * c.k + j)].real() : 1.0;
      if (v < start || v >= end || p == 0.0) continue;
      for (int64_t x = 0; x < c.h; ++x) {
        const double term = p * d.tv[static_cast<size_t>((v - start) * c.h + x)].real();
        sum[static_cast<size_t>(x)] += term;
        magnitude[static_cast<size_t>(x)] += std::abs(term);
      }
    }
    want.insert(want.end(), sum.begin(), sum.end());
    scale.insert(scale.end(), magnitude.begin(), magnitude.end());
  }
  ExpectNear(d.out->ReadView(), RelativeTolerance(want, c.dtype, 4, scale), "out");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType probs_dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      Case c;
      c.dtype = dtype;
      c.probs_dtype = probs_dtype;
      c.view = dtype == probs_dtype ? View::kTransposed : View::kContiguous;
      c.name = std::string(Name(dtype)) + "_probs_" + Name(probs_dtype) + (dtype == probs_dtype ? "_strided" : "");
      cases.push_back(c);
    }
  }
  Case no_probs;
  no_probs.probs = false;
  no_probs.name = "no_probs";
  cases.push_back(no_probs);
  Case all;
  all.start = 0;
  all.end = 21;
  all.name = "whole_range";
  cases.push_back(all);
  Case none;
  none.start = 6;
  none.end = 6;
  none.name = "empty_range";
  cases.push_back(none);
  Case no_range;
  no_range.range = false;
  no_range.name = "no_range_is_moe_token_unpermute";
  cases.push_back(no_range);
  return cases;
}

class MoeTokenUnpermuteWithEpTest : public ::testing::TestWithParam<Case> {};
TEST_P(MoeTokenUnpermuteWithEpTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  const OpRun run = RunWithEp(c, d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Check(c, d);
}
INSTANTIATE_TEST_SUITE_P(All, MoeTokenUnpermuteWithEpTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// A slot whose prob is 0 reads nothing: an infinite row it names leaves out finite.
TEST(MoeTokenUnpermuteWithEp, ZeroProbReadsNothing) {
  Case c;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  size_t slot = 0;
  while (d.index[slot] < c.start || d.index[slot] >= c.end) ++slot;
  d.pv[slot] = 0.0;
  d.probs->WriteView(d.pv);
  const int64_t row = d.index[slot] - c.start;
  for (int64_t x = 0; x < c.h; ++x) d.tv[static_cast<size_t>(row * c.h + x)] = INFINITY;
  d.permuted->WriteView(d.tv);
  ASSERT_TRUE(RunWithEp(c, d).ok());
  for (const Value& v : d.out->ReadView()) EXPECT_TRUE(std::isfinite(v.real()));
  Check(c, d);
}

// The doc's example: permutedTokens [4, 2] (positions [1, 5)), sortedIndices of 6 slots, probs [3, 2].
TEST(MoeTokenUnpermuteWithEp, DocExample) {
  Case c;
  c.tokens = 3;
  c.k = 2;
  c.h = 2;
  c.start = 1;
  c.end = 5;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  ASSERT_TRUE(RunWithEp(c, d).ok());
  Check(c, d);
}

// MoeTokenPermuteWithEp's rows and probabilities of a range, unpermuted with the same range and probs 1,
// give each token times the number of its copies in the range.
TEST(MoeTokenUnpermuteWithEp, UndoesMoeTokenPermuteWithEp) {
  const int64_t tokens = 6, k = 2, h = 5, start = 3, end = 9;
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(ACL_FLOAT, {tokens, h}), indices(ACL_INT32, {tokens, k}), permuted(ACL_FLOAT, {end - start, h});
  DeviceTensor sorted(ACL_INT32, {tokens * k}), probs_out(ACL_FLOAT, {end - start}), out(ACL_FLOAT, {tokens, h});
  const Values xv = x.FillRandom(rng, Range{-3, 3});
  indices.FillRandom(rng, Range{0, 3, 0, 0, true});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                    return aclnnMoeTokenPermuteWithEpGetWorkspaceSize(
                        a.Tensor(x), a.Tensor(indices), nullptr, a.IntArray({start, end}), 0, false, a.Tensor(permuted),
                        a.Tensor(sorted), a.Tensor(probs_out), w, e);
                  },
                  aclnnMoeTokenPermuteWithEp)
                  .ok());
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize(a.Tensor(permuted), a.Tensor(sorted), nullptr, k,
                                                            a.IntArray({start, end}), false, nullptr, a.Tensor(out), w,
                                                            e);
      },
      aclnnMoeTokenUnpermuteWithEp);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values position = sorted.ReadView();
  Values want;
  for (int64_t i = 0; i < tokens; ++i) {
    double copies = 0;
    for (int64_t j = 0; j < k; ++j) {
      const double p = position[static_cast<size_t>(i * k + j)].real();
      copies += p >= start && p < end ? 1 : 0;
    }
    for (int64_t x_col = 0; x_col < h; ++x_col) want.push_back(copies * xv[static_cast<size_t>(i * h + x_col)].real());
  }
  ExpectNear(out.ReadView(), RelativeTolerance(want, ACL_FLOAT, 2), "out");
}

TEST(MoeTokenUnpermuteWithEp, NoTokens) {
  Case c;
  c.tokens = 0;
  c.start = 0;
  c.end = 0;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  ASSERT_TRUE(RunWithEp(c, d).ok());
}

// An index in the range but past permutedTokens' rows fails the run.
TEST(MoeTokenUnpermuteWithEp, IndexPastPermutedTokensFailsTheRun) {
  Case c;
  c.end = 16;  // the range names 12 rows, permutedTokens has 11
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  d.permuted = std::make_unique<DeviceTensor>(c.dtype, Shape{11, c.h});
  d.permuted->FillRandom(rng, Range{-3, 3});
  const size_t slot = static_cast<size_t>(std::find(d.index.begin(), d.index.end(), 15) - d.index.begin());
  ASSERT_LT(slot, d.index.size());
  d.pv[slot] = 0.5;
  d.probs->WriteView(d.pv);
  const OpRun run = RunWithEp(c, d);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_FALSE(run.ok()) << Describe(run);
  EXPECT_NE(run.message.find("'sortedIndices'"), std::string::npos) << run.message;
}

TEST(MoeTokenUnpermuteWithEpRejects, EachCase) {
  const auto expect = [](Case c, const std::function<void(Case&, Data&)>& edit, aclnnStatus status,
                         std::vector<std::string> words, int64_t num_topk = 3, bool padded = false) {
    Rng rng(3);
    Data d = Make(c, rng);
    edit(c, d);
    ExpectRejectedWith(RunWithEp(c, d, num_topk, padded), status, words);
  };
  const Case c;
  const auto none = [](Case&, Data&) {};
  expect(c,
         [](Case&, Data& d) {
           d.permuted = std::make_unique<DeviceTensor>(ACL_INT32, Shape{11, 10});
         },
         kInvalid, {"'permutedTokens'"});
  expect(c, [](Case&, Data& d) { d.indices = std::make_unique<DeviceTensor>(ACL_INT64, Shape{21}); }, kInvalid,
         {"'sortedIndices'"});
  expect(c,
         [](Case&, Data& d) {
           d.probs = std::make_unique<DeviceTensor>(ACL_INT32, Shape{7, 3});
         },
         kInvalid, {"'probsOptional'"});
  expect(c,
         [](Case&, Data& d) {
           d.out = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{7, 10});
         },
         kInvalid, {"'out'"});
  expect(c, none, kInvalid, {"'paddedMode'"}, 3, true);
  expect(c, none, kTiling, {"'numTopk'"}, 0);
  expect(c, none, kTiling, {"'probsOptional'"}, 2);
  expect(c,
         [](Case&, Data& d) {
           d.permuted = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{11, 10, 1});
         },
         kTiling, {"2-D"});
  expect(c,
         [](Case&, Data& d) {
           d.indices = std::make_unique<DeviceTensor>(ACL_INT32, Shape{7, 3});
         },
         kTiling, {"1-D"});
  expect(c, [](Case&, Data& d) { d.probs = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{21}); }, kTiling,
         {"'probsOptional'"});
  expect(c,
         [](Case&, Data& d) {
           d.probs = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{6, 3});
         },
         kTiling, {"'probsOptional'"});
  expect(c, [](Case&, Data& d) { d.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{7, 9}); }, kTiling, {"'out'"});
  // The range lies within [0, slots] as MoeTokenPermuteWithEp's does (an
  // adversarial pass: [INT64_MIN, INT64_MAX] let every index through, and the
  // kernel read far past permutedTokens).
  for (const std::pair<int64_t, int64_t>& range : std::vector<std::pair<int64_t, int64_t>>{
           {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}, {-1, 5}, {4, 22}, {22, 4}}) {
    SCOPED_TRACE(std::to_string(range.first) + ", " + std::to_string(range.second));
    expect(c,
           [range](Case& e, Data&) {
             e.start = range.first;
             e.end = range.second;
           },
           kTiling, {"range", "within"});
  }
  Case wide;
  wide.tokens = 1;
  wide.k = 513;
  wide.start = 0;
  wide.end = 4;
  expect(wide, none, kTiling, {"'probsOptional'"}, 513);
  Rng rng(5);
  Data d = Make(c, rng);
  ExpectRejectedWith(RunOp(
                         [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                           return aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize(
                               a.Tensor(*d.permuted), a.Tensor(*d.indices), a.Tensor(*d.probs), 3,
                               a.IntArray({0, 4, 15}), false, nullptr, a.Tensor(*d.out), w, e);
                         },
                         aclnnMoeTokenUnpermuteWithEp),
                     kTiling, {"'rangeOptional'"});
}

}  // namespace
}  // namespace canopy_test
