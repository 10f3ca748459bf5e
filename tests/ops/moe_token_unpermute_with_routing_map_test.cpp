// aclnnMoeTokenUnpermuteWithRoutingMap against a float64 reference: drop-less
// (each token's topK permuted rows, weighted by probs taken in the routing
// map's expert-major order) and padded (each slot's row added to its token,
// weighted by probs[token, expert of the slot], with the sorted indices and
// their permutation); with and without probs; every dtype, strided views, the
// doc's example, an index out of range failing the run, and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_moe_token_unpermute_with_routing_map.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT;
  int64_t tokens = 5, experts = 4, top_k = 2, capacity = 3, h = 6;
  bool padded = false, probs = true;
  View view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

Expected Exact(const Values& v) { return Expected{v, std::vector<double>(v.size(), 0.0)}; }

class UnpermuteWithRoutingMapTest : public ::testing::TestWithParam<Case> {};

TEST_P(UnpermuteWithRoutingMapTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t rows = c.padded ? c.experts * c.capacity : c.tokens * c.top_k;
  // A drop-less map: top_k distinct experts a token (the first top_k of a rotation); padded: random slot tokens.
  std::vector<std::vector<bool>> map(static_cast<size_t>(c.tokens), std::vector<bool>(static_cast<size_t>(c.experts)));
  for (int64_t t = 0; t < c.tokens; ++t) {
    const auto first = static_cast<int64_t>(rng.Uniform(0, double(c.experts) - 1e-9));
    for (int64_t j = 0; j < c.top_k; ++j)
      map[static_cast<size_t>(t)][static_cast<size_t>((first + j) % c.experts)] = true;
  }
  Values indices(static_cast<size_t>(rows));
  if (c.padded) {
    for (auto& v : indices) v = std::floor(rng.Uniform(0, double(c.tokens) - 1e-9));
  } else {  // a random permutation of the positions
    std::vector<int64_t> order(static_cast<size_t>(rows));
    std::iota(order.begin(), order.end(), 0);
    for (int64_t i = rows - 1; i > 0; --i) {
      std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(rng.Uniform(0, double(i + 1) - 1e-9))]);
    }
    for (int64_t i = 0; i < rows; ++i) indices[static_cast<size_t>(i)] = double(order[static_cast<size_t>(i)]);
  }
  DeviceTensor permuted(c.dtype, {rows, c.h}, c.view), sorted(ACL_INT32, {rows}, c.view);
  DeviceTensor routing(ACL_BOOL, {c.tokens, c.experts}), probs(c.dtype, {c.tokens, c.experts}, c.view);
  const Values xv = permuted.FillRandom(rng, Range{-2, 2});
  const Values pv = probs.FillRandom(rng, Range{0, 1});
  sorted.WriteView(indices);
  Values mv;
  for (const auto& row : map) {
    for (bool b : row) mv.push_back(b ? 1.0 : 0.0);
  }
  routing.WriteView(mv);
  DeviceTensor unpermuted(c.dtype, {c.tokens, c.h}, c.view), out_index(ACL_INT32, {rows}), token_id(ACL_INT32, {rows});
  DeviceTensor permute_probs(c.dtype, {rows}, c.view);
  for (DeviceTensor* t : {&unpermuted, &out_index, &token_id, &permute_probs}) t->Poison();
  const std::vector<int64_t> restore = {c.tokens, c.h};
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(
            a.Tensor(permuted), a.Tensor(sorted), a.Tensor(routing), c.probs ? a.Tensor(probs) : nullptr, c.padded,
            a.IntArray(restore), a.Tensor(unpermuted), a.Tensor(out_index), a.Tensor(token_id), a.Tensor(permute_probs),
            w, e);
      },
      aclnnMoeTokenUnpermuteWithRoutingMap);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Values weight(static_cast<size_t>(rows), 1.0);
  if (c.probs && c.padded) {
    for (int64_t i = 0; i < rows; ++i) {
      const auto t = static_cast<int64_t>(indices[static_cast<size_t>(i)].real());
      weight[static_cast<size_t>(i)] = pv[static_cast<size_t>(t * c.experts + i / c.capacity)];
    }
  } else if (c.probs) {
    int64_t p = 0;
    for (int64_t e = 0; e < c.experts; ++e) {
      for (int64_t t = 0; t < c.tokens; ++t) {
        if (map[static_cast<size_t>(t)][static_cast<size_t>(e)])
          weight[static_cast<size_t>(p++)] = pv[static_cast<size_t>(t * c.experts + e)];
      }
    }
  }
  std::vector<double> want(static_cast<size_t>(c.tokens * c.h), 0.0), scale(want.size(), 0.0);
  const auto add = [&](int64_t token, int64_t source) {
    for (int64_t col = 0; col < c.h; ++col) {
      const double term =
          xv[static_cast<size_t>(source * c.h + col)].real() * weight[static_cast<size_t>(source)].real();
      want[static_cast<size_t>(token * c.h + col)] += term;
      scale[static_cast<size_t>(token * c.h + col)] += std::abs(term);
    }
  };
  for (int64_t i = 0; i < rows; ++i) {
    const auto v = static_cast<int64_t>(indices[static_cast<size_t>(i)].real());
    if (c.padded) {
      add(v, i);
    } else {
      add(i / c.top_k, v);
    }
  }
  ExpectNear(unpermuted.ReadView(), RelativeTolerance(Values(want.begin(), want.end()), c.dtype, 4, scale),
             "unpermutedTokens");
  if (c.probs) ExpectNear(permute_probs.ReadView(), Exact(weight), "permuteProbs");
  if (c.padded) {
    std::vector<int64_t> order(static_cast<size_t>(rows));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return indices[static_cast<size_t>(a)].real() < indices[static_cast<size_t>(b)].real();
    });
    Values want_index, want_id;
    for (int64_t i : order) {
      want_index.push_back(double(i));
      want_id.push_back(indices[static_cast<size_t>(i)]);
    }
    ExpectNear(out_index.ReadView(), Exact(want_index), "outIndex");
    ExpectNear(token_id.ReadView(), Exact(want_id), "permuteTokenId");
  }
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : HalfAndSingle()) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_dropless_probs"});
    cases.push_back({.dtype = dtype,
                     .tokens = 7,
                     .experts = 6,
                     .top_k = 3,
                     .h = 4,
                     .probs = false,
                     .name = t + "_dropless_no_probs"});
    cases.push_back({.dtype = dtype, .padded = true, .name = t + "_padded_probs"});
    cases.push_back({.dtype = dtype,
                     .tokens = 4,
                     .experts = 3,
                     .capacity = 5,
                     .h = 3,
                     .padded = true,
                     .probs = false,
                     .name = t + "_padded_no_probs"});
    cases.push_back({.dtype = dtype,
                     .tokens = 6,
                     .experts = 5,
                     .top_k = 5,
                     .h = 5,
                     .view = View::kStepped,
                     .name = t + "_dropless_stepped"});
    cases.push_back({.dtype = dtype,
                     .tokens = 3,
                     .experts = 2,
                     .capacity = 4,
                     .h = 7,
                     .padded = true,
                     .view = View::kTransposed,
                     .name = t + "_padded_transposed"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, UnpermuteWithRoutingMapTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

OpRun RunExample(const DeviceTensor& permuted, const DeviceTensor& sorted, const DeviceTensor& map,
                 const DeviceTensor& probs, bool padded, const DeviceTensor& unpermuted, const DeviceTensor& out_index,
                 const DeviceTensor& token_id, const DeviceTensor& permute_probs) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(
            a.Tensor(permuted), a.Tensor(sorted), a.Tensor(map), a.Tensor(probs), padded, a.IntArray({2, 2}),
            a.Tensor(unpermuted), a.Tensor(out_index), a.Tensor(token_id), a.Tensor(permute_probs), w, e);
      },
      aclnnMoeTokenUnpermuteWithRoutingMap);
}

// The doc's example: padded, permutedTokens ones [2, 2], sortedIndices {1, 1}, probs ones [2, 2].
TEST(MoeTokenUnpermuteWithRoutingMap, DocExample) {
  DeviceTensor permuted(ACL_FLOAT, {2, 2}), sorted(ACL_INT32, {2}), map(ACL_INT8, {2, 2}), probs(ACL_FLOAT, {2, 2});
  DeviceTensor unpermuted(ACL_FLOAT, {2, 2}), out_index(ACL_INT32, {2}), token_id(ACL_INT32, {2});
  DeviceTensor permute_probs(ACL_FLOAT, {2});
  permuted.WriteView({1, 1, 1, 1});
  sorted.WriteView({1, 1});
  map.WriteView({1, 1, 1, 1});
  probs.WriteView({1, 1, 1, 1});
  const OpRun run = RunExample(permuted, sorted, map, probs, true, unpermuted, out_index, token_id, permute_probs);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(unpermuted.ReadView(), Exact({0, 0, 2, 2}), "unpermutedTokens");
  ExpectNear(out_index.ReadView(), Exact({0, 1}), "outIndex");
  ExpectNear(token_id.ReadView(), Exact({1, 1}), "permuteTokenId");
  ExpectNear(permute_probs.ReadView(), Exact({1, 1}), "permuteProbs");
}

TEST(MoeTokenUnpermuteWithRoutingMap, IndexOutOfRangeFailsTheRun) {
  for (bool padded : {true, false}) {
    DeviceTensor permuted(ACL_FLOAT, {2, 2}), sorted(ACL_INT32, {2}), map(ACL_INT8, {2, 2}), probs(ACL_FLOAT, {2, 2});
    DeviceTensor unpermuted(ACL_FLOAT, {2, 2}), out_index(ACL_INT32, {2}), token_id(ACL_INT32, {2});
    DeviceTensor permute_probs(ACL_FLOAT, {2});
    sorted.WriteView({0, 2});
    map.WriteView({1, 0, 0, 1});
    const OpRun run = RunExample(permuted, sorted, map, probs, padded, unpermuted, out_index, token_id, permute_probs);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
  }
}

struct Call {
  aclDataType permuted = ACL_FLOAT16, indices = ACL_INT32, map = ACL_BOOL, probs = ACL_FLOAT16,
              unpermuted = ACL_FLOAT16, out_index = ACL_INT32, token_id = ACL_INT32, permute_probs = ACL_FLOAT16;
  Shape xs = {6, 4}, is = {6}, ms = {3, 2}, ps = {3, 2}, us = {3, 4}, os = {6}, ts = {6}, pps = {6};
  bool padded = true, probs_null = false, restore_null = false, map_null = false;
  std::vector<int64_t> restore = {3, 4};
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(
            a.NewTensor(c.permuted, c.xs), a.NewTensorIn(Range{0, 0, 0, 0, true}, c.indices, c.is),
            c.map_null ? nullptr : a.NewTensorIn(Range{1, 1}, c.map, c.ms),
            c.probs_null ? nullptr : a.NewTensor(c.probs, c.ps), c.padded,
            c.restore_null ? nullptr : a.IntArray(c.restore), a.NewTensor(c.unpermuted, c.us),
            a.NewTensor(c.out_index, c.os), a.NewTensor(c.token_id, c.ts), a.NewTensor(c.permute_probs, c.pps), w, e);
      },
      aclnnMoeTokenUnpermuteWithRoutingMap);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(MoeTokenUnpermuteWithRoutingMapRejects, EachCase) {
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.restore_null = true; })).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.probs_null = true; })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.probs_null = c.restore_null = true; })), ACLNN_ERR_PARAM_NULLPTR,
                     {"'probsOptional'", "'restoreShapeOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.permuted = c.unpermuted = ACL_INT32; })), ACLNN_ERR_PARAM_INVALID,
                     {"'permutedTokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.indices = c.out_index = c.token_id = ACL_INT64; })),
                     ACLNN_ERR_PARAM_INVALID, {"'sortedIndices'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.map = ACL_FLOAT; })), ACLNN_ERR_PARAM_INVALID,
                     {"'routingMapOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.probs = c.permute_probs = ACL_INT32; })), ACLNN_ERR_PARAM_INVALID,
                     {"'probsOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.permute_probs = ACL_FLOAT; })), ACLNN_ERR_PARAM_INVALID,
                     {"'permuteProbs'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.unpermuted = ACL_BF16; })), ACLNN_ERR_PARAM_INVALID,
                     {"'unpermutedTokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out_index = ACL_INT64; })), ACLNN_ERR_PARAM_INVALID, {"'outIndex'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.token_id = ACL_INT64; })), ACLNN_ERR_PARAM_INVALID,
                     {"'permuteTokenId'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.is = {6, 1}; })), ACLNN_ERR_PARAM_INVALID, {"sortedIndices", "1-D"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.us = {3, 4, 1};
                     })),
                     ACLNN_ERR_PARAM_INVALID, {"unpermutedTokens", "2-D"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ps = {3, 2, 1}; })), ACLNN_ERR_PARAM_INVALID, {"'probsOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.restore = {4, 4};
                     })),
                     ACLNN_ERR_PARAM_INVALID, {"probsOptional", "tokens"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.us = {3, 5}; })), ACLNN_ERR_PARAM_INVALID, {"'unpermutedTokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.is = {5}; })), ACLNN_ERR_PARAM_INVALID, {"'sortedIndices'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.os = {5}; })), ACLNN_ERR_PARAM_INVALID, {"'outIndex'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.pps = {5}; })), ACLNN_ERR_PARAM_INVALID, {"'permuteProbs'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.ps = c.ms = {3, 4};
                     })),
                     ACLNN_ERR_PARAM_INVALID, {"multiple", "experts"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.padded = false;
                       c.map_null = true;
                     })),
                     ACLNN_ERR_PARAM_NULLPTR, {"'routingMapOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.padded = false;
                       c.ms = {3, 3};
                     })),
                     ACLNN_ERR_PARAM_INVALID, {"'routingMapOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.padded = false;
                       c.xs = {7, 4};
                       c.is = c.os = c.ts = c.pps = {7};
                     })),
                     ACLNN_ERR_PARAM_INVALID, {"topK"});
}

}  // namespace
}  // namespace canopy_test
