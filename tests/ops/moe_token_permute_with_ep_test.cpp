// aclnnMoeTokenPermuteWithEp against an exact reference: MoeTokenPermute's
// stable sort by expert (sortedIndicesOut: each slot's position), the token
// rows and probabilities of the positions [start, start + n) only, in rows
// 0.. of permuteTokensOut and permuteProbsOut (n = end - start, plus the slot
// count where that is <= 0), the rows no position reaches left alone. Every
// dtype, both index dtypes, 1-D indices, rank-3 tokens, strided views, no
// range (MoeTokenPermute, probsOptional ignored), the doc's example, no
// tokens, a bad index and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_moe_token_permute_with_ep.h"
#include "llm_test_support.h"
#include "moe_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT, index_dtype = ACL_INT32;
  Shape tokens = {7, 12};
  int64_t k = 3;  // 0: 1-D indices (topK 1)
  int64_t experts = 5;
  bool range = true, probs = true;
  int64_t start = 4, end = 15, num_out = 0;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

int64_t Slots(const Case& c) { return c.tokens[0] * std::max<int64_t>(c.k, 1); }
int64_t Start(const Case& c) { return c.range ? c.start : 0; }
// No range: MoeTokenPermute's numOutTokens (0 all, > 0 the first that many, < 0 all but the last -n).
int64_t OutRows(const Case& c) {
  const int64_t slots = Slots(c);
  if (!c.range) return std::clamp<int64_t>(c.num_out > 0 ? c.num_out : c.num_out + slots, 0, slots);
  const int64_t n = c.end - c.start;
  return std::clamp<int64_t>(n <= 0 ? n + slots : n, 0, slots);
}

struct Data {
  std::unique_ptr<DeviceTensor> tokens, indices, probs, out, sorted, probs_out;
  Values tv, pv;
  std::vector<int64_t> experts;
};

Data Make(const Case& c, Rng& rng) {
  Data d;
  d.tokens = std::make_unique<DeviceTensor>(c.dtype, c.tokens, c.view);
  d.tv = d.tokens->FillRandom(rng, Range{-3, 3});
  const Shape index_shape = c.k == 0 ? Shape{c.tokens[0]} : Shape{c.tokens[0], c.k};
  for (int64_t t = 0; t < Slots(c); ++t) d.experts.push_back(static_cast<int64_t>(rng.Uniform(0, c.experts)));
  d.indices = std::make_unique<DeviceTensor>(c.index_dtype, index_shape, c.view);
  d.indices->WriteView(Values(d.experts.begin(), d.experts.end()));
  if (c.probs) {
    d.probs = std::make_unique<DeviceTensor>(c.dtype, index_shape, c.view);
    d.pv = d.probs->FillRandom(rng, Range{0, 1});
  }
  int64_t h = 1;
  for (size_t i = 1; i < c.tokens.size(); ++i) h *= c.tokens[i];
  d.out = std::make_unique<DeviceTensor>(c.dtype, Shape{OutRows(c), h}, c.view);
  d.sorted = std::make_unique<DeviceTensor>(ACL_INT32, Shape{Slots(c)}, c.view);
  d.probs_out = std::make_unique<DeviceTensor>(c.dtype, Shape{OutRows(c)}, c.view);
  for (DeviceTensor* t : {d.out.get(), d.sorted.get(), d.probs_out.get()}) t->Poison();
  return d;
}

OpRun RunWithEp(const Case& c, Data& d, bool padded = false) {
  const auto t = [](OpArgs& a, const std::unique_ptr<DeviceTensor>& p) { return p ? a.Tensor(*p) : nullptr; };
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenPermuteWithEpGetWorkspaceSize(t(a, d.tokens), t(a, d.indices), t(a, d.probs),
                                                          c.range ? a.IntArray({c.start, c.end}) : nullptr, c.num_out,
                                                          padded, t(a, d.out), t(a, d.sorted), t(a, d.probs_out), w, e);
      },
      aclnnMoeTokenPermuteWithEp);
}

// The poison where no position reaches, the reference elsewhere.
void ExpectWindow(const Values& got, const Values& poison, const Values& want, const std::vector<bool>& written,
                  const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (written[i]) {
      EXPECT_EQ(got[i].real(), want[i].real()) << what << " element " << i;
    } else {
      EXPECT_TRUE(std::isnan(got[i].real()) || got[i].real() == poison[i].real()) << what << " element " << i;
    }
  }
}

void Check(const Case& c, const Data& d, const Values& out_poison, const Values& probs_poison) {
  const int64_t slots = Slots(c), k = std::max<int64_t>(c.k, 1), rows = OutRows(c);
  const int64_t h = c.tokens[0] == 0 ? 0 : d.tokens->numel() / c.tokens[0];
  const MoeRouting r = RouteMoeV2(d.experts, k, slots, false, 0, 0);
  ExpectExact(d.sorted->ReadView(), r.row_index, "sortedIndicesOut");
  Values want_out(static_cast<size_t>(rows * h), Value(0.0)), want_probs(static_cast<size_t>(rows), Value(0.0));
  std::vector<bool> out_written(want_out.size(), false), probs_written(want_probs.size(), false);
  for (int64_t p = Start(c); p < std::min(slots, Start(c) + rows); ++p) {
    const int64_t row = p - Start(c), s = r.order[static_cast<size_t>(p)];
    for (int64_t j = 0; j < h; ++j) {
      want_out[static_cast<size_t>(row * h + j)] = d.tv[static_cast<size_t>(s / k * h + j)];
      out_written[static_cast<size_t>(row * h + j)] = true;
    }
    if (c.probs && c.range) {  // without a range probsOptional is ignored
      want_probs[static_cast<size_t>(row)] = d.pv[static_cast<size_t>(s)];
      probs_written[static_cast<size_t>(row)] = true;
    }
  }
  ExpectWindow(d.out->ReadView(), out_poison, want_out, out_written, "permuteTokensOut");
  ExpectWindow(d.probs_out->ReadView(), probs_poison, want_probs, probs_written, "permuteProbsOut");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    Case c;
    c.dtype = dtype;
    c.name = std::string(Name(dtype)) + "_range_4_15";
    cases.push_back(c);
    c.view = View::kTransposed;
    c.index_dtype = ACL_INT64;
    c.name = std::string(Name(dtype)) + "_int64_strided";
    cases.push_back(c);
  }
  Case all;
  all.start = 0;
  all.end = 21;
  all.name = "whole_range";
  cases.push_back(all);
  Case wrap;  // end <= start: n = end - start + slots, the window running past the last position
  wrap.start = 9;
  wrap.end = 6;
  wrap.name = "end_before_start";
  cases.push_back(wrap);
  Case same;
  same.start = 5;
  same.end = 5;
  same.name = "empty_range_means_all_slots";
  cases.push_back(same);
  Case no_range;  // MoeTokenPermute
  no_range.range = false;
  no_range.num_out = 8;
  no_range.name = "no_range_num_out_8";
  cases.push_back(no_range);
  no_range.num_out = -5;
  no_range.name = "no_range_num_out_minus_5";
  cases.push_back(no_range);
  Case one_d;
  one_d.k = 0;
  one_d.start = 2;
  one_d.end = 6;
  one_d.probs = false;
  one_d.name = "indices_1d_no_probs";
  cases.push_back(one_d);
  Case rank3;
  rank3.tokens = {7, 2, 5};
  rank3.k = 2;
  rank3.start = 3;
  rank3.end = 11;
  rank3.view = View::kStepped;
  rank3.name = "rank3_tokens_stepped";
  cases.push_back(rank3);
  return cases;
}

class MoeTokenPermuteWithEpTest : public ::testing::TestWithParam<Case> {};
TEST_P(MoeTokenPermuteWithEpTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  const Values out_poison = d.out->ReadView(), probs_poison = d.probs_out->ReadView();
  const OpRun run = RunWithEp(c, d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Check(c, d, out_poison, probs_poison);
}
INSTANTIATE_TEST_SUITE_P(All, MoeTokenPermuteWithEpTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: bf16 x rows 0.1, 0.2, 0.3, indices [[1, 2], [3, 1], [2, 3]], probs, range [1, 5].
TEST(MoeTokenPermuteWithEp, DocExample) {
  Case c;
  c.dtype = ACL_BF16;
  c.tokens = {3, 4};
  c.k = 2;
  c.start = 1;
  c.end = 5;
  c.num_out = 6;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  d.tokens->WriteView(Values{0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3, 0.3});
  d.tv = d.tokens->ReadView();
  d.experts = {1, 2, 3, 1, 2, 3};
  d.indices->WriteView(Values(d.experts.begin(), d.experts.end()));
  d.probs->WriteView(Values{0.5, 0.3, 0.4, 0.2, 0.5, 0.4});
  d.pv = d.probs->ReadView();
  const Values out_poison = d.out->ReadView(), probs_poison = d.probs_out->ReadView();
  ASSERT_TRUE(RunWithEp(c, d).ok());
  ExpectExact(d.sorted->ReadView(), Values{0, 2, 4, 1, 3, 5}, "sortedIndicesOut");
  Check(c, d, out_poison, probs_poison);
}

TEST(MoeTokenPermuteWithEp, NoTokens) {
  Case c;
  c.tokens = {0, 12};
  c.start = 0;
  c.end = 0;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  ASSERT_TRUE(RunWithEp(c, d).ok());
}

TEST(MoeTokenPermuteWithEp, IndexOutOfRangeFailsTheRun) {
  for (double bad : {-1.0, 16777215.0}) {
    Case c;
    c.index_dtype = ACL_INT64;
    Rng rng = Rng::ForCurrentTest();
    Data d = Make(c, rng);
    Values v(d.experts.begin(), d.experts.end());
    v[4] = bad;
    d.indices->WriteView(v);
    const OpRun run = RunWithEp(c, d);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_FALSE(run.ok()) << Describe(run);
    EXPECT_NE(run.message.find("'indices'"), std::string::npos) << run.message;
  }
}

TEST(MoeTokenPermuteWithEpRejects, EachCase) {
  const auto expect = [](Case c, const std::function<void(Case&, Data&)>& edit, aclnnStatus status,
                         std::vector<std::string> words, bool padded = false) {
    Rng rng(3);
    Data d = Make(c, rng);
    edit(c, d);
    ExpectRejectedWith(RunWithEp(c, d, padded), status, words);
  };
  const Case c;
  const auto none = [](Case&, Data&) {};
  // The op definition's dtypes.
  expect(c,
         [](Case&, Data& d) {
           d.tokens = std::make_unique<DeviceTensor>(ACL_INT32, Shape{7, 12});
         },
         kInvalid, {"'tokens'"});
  expect(c,
         [](Case&, Data& d) {
           d.indices = std::make_unique<DeviceTensor>(ACL_INT16, Shape{7, 3});
         },
         kInvalid, {"'indices'"});
  expect(c,
         [](Case&, Data& d) {
           d.probs = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{7, 3});
         },
         kInvalid, {"'probsOptional'"});
  expect(c,
         [](Case&, Data& d) {
           d.out = std::make_unique<DeviceTensor>(ACL_BF16, Shape{11, 12});
         },
         kInvalid, {"'permuteTokensOut'"});
  expect(c, [](Case&, Data& d) { d.sorted = std::make_unique<DeviceTensor>(ACL_INT64, Shape{21}); }, kInvalid,
         {"'sortedIndicesOut'"});
  expect(c, [](Case&, Data& d) { d.probs_out = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{11}); }, kInvalid,
         {"'permuteProbsOut'"});
  // The tiling's checks.
  expect(c, none, kTiling, {"'paddedMode'"}, true);
  expect(c,
         [](Case&, Data& d) {
           d.indices = std::make_unique<DeviceTensor>(ACL_INT32, Shape{7, 3, 1});
         },
         kTiling, {"'indices'"});
  expect(c,
         [](Case&, Data& d) {
           d.indices = std::make_unique<DeviceTensor>(ACL_INT32, Shape{6, 3});
         },
         kTiling, {"first dim"});
  expect(c,
         [](Case&, Data& d) {
           d.probs = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{7, 2});
         },
         kTiling, {"'probsOptional'"});
  expect(c, [](Case&, Data& d) { d.probs = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{21}); }, kTiling,
         {"'probsOptional'"});
  expect(c,
         [](Case&, Data& d) {
           d.indices = std::make_unique<DeviceTensor>(ACL_INT32, Shape{7, 0});
           d.probs = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{7, 0});
         },
         kTiling, {"topK"});
  Case wide;
  wide.tokens = {1, 4};
  wide.k = 513;
  wide.start = 0;
  wide.end = 4;
  expect(wide, none, kTiling, {"topK"});
  for (const std::pair<int64_t, int64_t>& bad : {std::pair<int64_t, int64_t>{-1, 5}, {0, 22}, {22, 3}}) {
    Case r = c;
    r.start = std::max<int64_t>(bad.first, 0);
    r.end = std::min<int64_t>(bad.second, 21);
    expect(r,
           [bad](Case& e, Data&) {
             e.start = bad.first;
             e.end = bad.second;
           },
           kTiling, {"range"});
  }
  expect(c,
         [](Case&, Data& d) {
           d.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{12, 12});
         },
         kTiling, {"'permuteTokensOut'"});
  expect(c,
         [](Case&, Data& d) {
           d.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{11, 13});
         },
         kTiling, {"'permuteTokensOut'"});
  expect(c, [](Case&, Data& d) { d.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{132}); }, kTiling,
         {"'permuteTokensOut'"});
  expect(c, [](Case&, Data& d) { d.sorted = std::make_unique<DeviceTensor>(ACL_INT32, Shape{20}); }, kTiling,
         {"'sortedIndicesOut'"});
  expect(c, [](Case&, Data& d) { d.probs_out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{12}); }, kTiling,
         {"'permuteProbsOut'"});
  // A range of three values.
  Rng rng(5);
  Data d = Make(c, rng);
  ExpectRejectedWith(RunOp(
                         [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                           return aclnnMoeTokenPermuteWithEpGetWorkspaceSize(
                               a.Tensor(*d.tokens), a.Tensor(*d.indices), a.Tensor(*d.probs), a.IntArray({0, 4, 15}), 0,
                               false, a.Tensor(*d.out), a.Tensor(*d.sorted), a.Tensor(*d.probs_out), w, e);
                         },
                         aclnnMoeTokenPermuteWithEp),
                     kTiling, {"'rangeOptional'"});
}

}  // namespace
}  // namespace canopy_test
