// aclnnMoeTokenPermuteWithRoutingMap against a direct reference: random
// routing maps with topK experts a token, the tokens in expert order, the
// position of each token's selections, the routed probabilities; drop and
// pad with capacities below and above the routed counts; every dtype, BOOL
// and INT8 maps, strided views, the doc's example, a map row with the wrong
// count failing the run, and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_moe_token_permute_with_routing_map.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT;
  aclDataType map_dtype = ACL_BOOL;
  int64_t tokens = 6, experts = 5, top_k = 2, h = 3;
  bool drop_and_pad = false, probs = true;
  int64_t capacity = 0;  // drop and pad
  View view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// A map with top_k distinct experts a token (drop-less), or a random one (drop and pad).
std::vector<std::vector<bool>> RandomMap(const Case& c, Rng& rng) {
  std::vector<std::vector<bool>> map(static_cast<size_t>(c.tokens), std::vector<bool>(static_cast<size_t>(c.experts)));
  for (auto& row : map) {
    std::vector<int64_t> experts(static_cast<size_t>(c.experts));
    std::iota(experts.begin(), experts.end(), 0);
    for (int64_t j = 0; j < c.experts; ++j) {  // Fisher-Yates with the test's generator
      const auto pick = j + static_cast<int64_t>(rng.Uniform(0, double(c.experts - j) - 1e-9));
      std::swap(experts[static_cast<size_t>(j)], experts[static_cast<size_t>(pick)]);
    }
    const int64_t count = c.drop_and_pad ? static_cast<int64_t>(rng.Uniform(0, double(c.experts) + 1 - 1e-9)) : c.top_k;
    for (int64_t j = 0; j < count; ++j) row[static_cast<size_t>(experts[static_cast<size_t>(j)])] = true;
  }
  return map;
}

class PermuteWithRoutingMapTest : public ::testing::TestWithParam<Case> {};

TEST_P(PermuteWithRoutingMapTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const auto map = RandomMap(c, rng);
  const int64_t rows = c.drop_and_pad ? c.capacity * c.experts : c.top_k * c.tokens;
  DeviceTensor tokens(c.dtype, {c.tokens, c.h}, c.view), routing(c.map_dtype, {c.tokens, c.experts}, c.view);
  DeviceTensor probs(c.dtype, {c.tokens, c.experts}, c.view);
  const Values xv = tokens.FillRandom(rng, Range{-3, 3});
  const Values pv = probs.FillRandom(rng, Range{0, 1});
  Values mv;
  for (const auto& row : map) {
    for (bool b : row) mv.push_back(b ? 1.0 : 0.0);
  }
  routing.WriteView(mv);
  DeviceTensor permuted(c.dtype, {rows, c.h}, c.view), permuted_probs(c.dtype, {rows}, c.view);
  DeviceTensor indices(ACL_INT32, {rows}, c.view);
  for (DeviceTensor* t : {&permuted, &permuted_probs, &indices}) t->Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
            a.Tensor(tokens), a.Tensor(routing), c.probs ? a.Tensor(probs) : nullptr, rows, c.drop_and_pad,
            a.Tensor(permuted), c.probs ? a.Tensor(permuted_probs) : nullptr, a.Tensor(indices), w, e);
      },
      aclnnMoeTokenPermuteWithRoutingMap);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Values want_x, want_probs, want_indices(static_cast<size_t>(rows));
  std::vector<int64_t> taken(static_cast<size_t>(c.tokens), 0);
  const auto add = [&](int64_t t, int64_t e) {
    for (int64_t col = 0; col < c.h; ++col) want_x.push_back(xv[static_cast<size_t>(t * c.h + col)]);
    want_probs.push_back(pv[static_cast<size_t>(t * c.experts + e)]);
  };
  int64_t p = 0;
  for (int64_t e = 0; e < c.experts; ++e) {
    if (c.drop_and_pad) {
      std::vector<int64_t> order;
      for (bool routed : {true, false}) {
        for (int64_t t = 0; t < c.tokens; ++t) {
          if (map[static_cast<size_t>(t)][static_cast<size_t>(e)] == routed) order.push_back(t);
        }
      }
      for (int64_t r = 0; r < c.capacity; ++r) {
        want_indices[static_cast<size_t>(p++)] = double(order[static_cast<size_t>(r)]);
        add(order[static_cast<size_t>(r)], e);
      }
      continue;
    }
    for (int64_t t = 0; t < c.tokens; ++t) {
      if (!map[static_cast<size_t>(t)][static_cast<size_t>(e)]) continue;
      want_indices[static_cast<size_t>(t * c.top_k + taken[static_cast<size_t>(t)]++)] = double(p++);
      add(t, e);
    }
  }
  const auto exact = [](const Values& v) { return Expected{v, std::vector<double>(v.size(), 0.0)}; };
  ExpectNear(permuted.ReadView(), exact(want_x), "permuteTokensOut");
  ExpectNear(indices.ReadView(), exact(want_indices), "sortedIndicesOut");
  if (c.probs) ExpectNear(permuted_probs.ReadView(), exact(want_probs), "permuteProbsOutOptional");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : HalfAndSingle()) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_dropless"});
    cases.push_back({.dtype = dtype,
                     .map_dtype = ACL_INT8,
                     .tokens = 9,
                     .experts = 8,
                     .top_k = 3,
                     .h = 5,
                     .probs = false,
                     .name = t + "_dropless_int8_map_no_probs"});
    cases.push_back({.dtype = dtype,
                     .tokens = 7,
                     .experts = 4,
                     .h = 4,
                     .drop_and_pad = true,
                     .capacity = 3,
                     .name = t + "_drop_and_pad"});
    cases.push_back({.dtype = dtype,
                     .tokens = 5,
                     .experts = 3,
                     .h = 2,
                     .drop_and_pad = true,
                     .capacity = 5,
                     .view = View::kStepped,
                     .name = t + "_drop_and_pad_full_capacity_stepped"});
    cases.push_back({.dtype = dtype,
                     .tokens = 6,
                     .experts = 6,
                     .top_k = 6,
                     .h = 3,
                     .view = View::kTransposed,
                     .name = t + "_every_expert_transposed"});
  }
  cases.push_back({.tokens = 4, .top_k = 0, .name = "top_k_0_empty"});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, PermuteWithRoutingMapTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

OpRun RunSimple(const DeviceTensor& tokens, const DeviceTensor& map, int64_t num_out, const DeviceTensor& permuted,
                const DeviceTensor& indices) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(a.Tensor(tokens), a.Tensor(map), nullptr, num_out,
                                                                  false, a.Tensor(permuted), nullptr, a.Tensor(indices),
                                                                  w, e);
      },
      aclnnMoeTokenPermuteWithRoutingMap);
}

// The doc's example: three tokens of 4 (0.1, 0.2, 0.3), both experts for each, numOutTokens 6.
TEST(MoeTokenPermuteWithRoutingMap, DocExample) {
  DeviceTensor tokens(ACL_BF16, {3, 4}), map(ACL_BOOL, {3, 2}), permuted(ACL_BF16, {6, 4}), indices(ACL_INT32, {6});
  tokens.WriteView({0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3, 0.3});
  map.WriteView({1, 1, 1, 1, 1, 1});
  const OpRun run = RunSimple(tokens, map, 6, permuted, indices);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(indices.ReadView(), Expected{{0, 3, 1, 4, 2, 5}, std::vector<double>(6, 0.0)}, "sortedIndicesOut");
  Values want;
  for (double v : {0.1, 0.2, 0.3, 0.1, 0.2, 0.3}) {
    for (int col = 0; col < 4; ++col) want.push_back(ConvertValue(v, ACL_BF16));
  }
  ExpectNear(permuted.ReadView(), Expected{want, std::vector<double>(want.size(), 0.0)}, "permuteTokensOut");
}

// Drop-less: a row routing other than numOutTokens / tokens experts fails the run.
TEST(MoeTokenPermuteWithRoutingMap, WrongRowCountFailsTheRun) {
  DeviceTensor tokens(ACL_FLOAT, {3, 4}), map(ACL_BOOL, {3, 2}), permuted(ACL_FLOAT, {3, 4}), indices(ACL_INT32, {3});
  map.WriteView({1, 0, 1, 1, 0, 1});
  const OpRun run = RunSimple(tokens, map, 3, permuted, indices);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS);
  EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
}

struct Call {
  aclDataType tokens = ACL_FLOAT16, map = ACL_BOOL, probs = ACL_FLOAT16, permuted = ACL_FLOAT16,
              permuted_probs = ACL_FLOAT16, indices = ACL_INT32;
  Shape ts = {4, 8}, ms = {4, 3}, ps = {4, 3}, pts = {8, 8}, pps = {8}, is = {8};
  int64_t num_out = 8;
  bool drop_and_pad = false, probs_null = false, permuted_probs_null = false;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
            a.NewTensor(c.tokens, c.ts), a.NewTensorIn(Range{0, 0, 0, 0, true}, c.map, c.ms),
            c.probs_null ? nullptr : a.NewTensor(c.probs, c.ps), c.num_out, c.drop_and_pad,
            a.NewTensor(c.permuted, c.pts), c.permuted_probs_null ? nullptr : a.NewTensor(c.permuted_probs, c.pps),
            a.NewTensor(c.indices, c.is), w, e);
      },
      aclnnMoeTokenPermuteWithRoutingMap);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(MoeTokenPermuteWithRoutingMapRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  // Phase 1 only looks at shapes (the all-zero map would fail a drop-less run): drop and pad runs it.
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.drop_and_pad = true;
                c.num_out = 6;
                c.pts = {6, 8};
                c.pps = c.is = {6};
              })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.permuted_probs_null = true; })), ACLNN_ERR_PARAM_NULLPTR,
                     {"'permuteProbsOutOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.tokens = c.permuted = c.probs = c.permuted_probs = ACL_INT32; })),
                     kInvalid, {"'tokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.map = ACL_INT32; })), kInvalid, {"'routingMap'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.permuted = ACL_FLOAT; })), kInvalid, {"'permuteTokensOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.probs = ACL_BF16; })), kInvalid, {"'probsOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.indices = ACL_INT64; })), kInvalid, {"'sortedIndicesOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ms = {4, 3, 1}; })), kInvalid, {"routingMap", "2-D"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.num_out = -1; })), kInvalid, {"'numOutTokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.num_out = 13; })), kInvalid, {"'numOutTokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.pts = {9, 8}; })), kInvalid, {"permuteTokensOut", "8 rows"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.pps = {4}; })), kInvalid, {"permuteProbsOutOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ts = {5, 8}; })), kInvalid, {"'tokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.pts = {8, 4}; })), kInvalid, {"'permuteTokensOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ps = {3, 4}; })), kInvalid, {"'probsOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.is = {4}; })), kInvalid, {"'sortedIndicesOut'"});
  // numOutTokens rounds down to a multiple of the tokens (experts with dropAndPad).
  EXPECT_EQ(RunCall(With([](Call& c) { c.num_out = 11; })).phase1, ACLNN_SUCCESS);
  // CANN's tiling: drop-less, at most 512 selections a token (561002); drop and pad has no such limit.
  const auto top_k = [](int64_t k, bool drop_and_pad) {
    return With([=](Call& c) {
      c.ts = {1, 8};
      c.ms = c.ps = {1, k};
      c.num_out = k;
      c.pts = {k, 8};
      c.pps = c.is = {k};
      c.drop_and_pad = drop_and_pad;
    });
  };
  EXPECT_EQ(RunCall(top_k(512, false)).phase1, ACLNN_SUCCESS);
  ExpectRejectedWith(RunCall(top_k(513, false)), ACLNN_ERR_INNER_TILING_ERROR, {"topK", "512"});
  EXPECT_TRUE(RunCall(top_k(600, true)).ok());
}

}  // namespace
}  // namespace canopy_test
