// aclnnMoeInitRoutingV3 against a direct reference: the slots whose expert is
// in the active range sorted by expert (stably), the others dropped; both
// row-index forms (gather: slot -> position, -1 dropped; scatter: position ->
// slot), the gathered rows, int64 counts per expert or key-value pairs, the
// unquantised scale gather and the dynamic INT8 quantisation (with and
// without the per-expert scale) against float64; every x dtype, strided
// views, no rows, the doc's call shape and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_moe_init_routing_v3.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT;
  int64_t rows = 6, k = 2, h = 5, experts = 8, start = 2, end = 6;
  int64_t quant_mode = -1, tokens_type = 1, row_idx_type = 0;
  bool scale = false, null_range = false;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// Values of `got` at the positions `keep` marks, and the poison elsewhere unchanged.
void ExpectKeptAndUntouched(const Values& got, const Values& poison, const std::vector<bool>& written,
                            const Expected& want, const char* what) {
  Values kept;
  Expected kept_want;
  for (size_t i = 0; i < got.size(); ++i) {
    if (written[i]) {
      kept.push_back(got[i]);
      kept_want.values.push_back(want.values[kept.size() - 1]);
      kept_want.tolerance.push_back(want.tolerance[kept.size() - 1]);
    } else {
      EXPECT_TRUE(std::isnan(got[i].real()) || got[i].real() == poison[i].real())
          << what << " element " << i << " should be left alone";
    }
  }
  ExpectNear(kept, kept_want, what);
}

Expected Exact(const Values& v) { return Expected{v, std::vector<double>(v.size(), 0.0)}; }

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t slots = c.rows * c.k, range = c.end - c.start;
  const bool quantise = c.quant_mode == 1;
  DeviceTensor x(c.dtype, {c.rows, c.h}, c.view);
  const Values xv = x.FillRandom(rng, c.dtype == ACL_INT8 ? Range{-100, 100} : Range{-3, 3});
  DeviceTensor expert_idx(ACL_INT32, {c.rows, c.k}, c.view);
  const Values ev = expert_idx.FillRandom(rng, Range{0, double(c.experts - 1), 0, 0, true});
  std::unique_ptr<DeviceTensor> scale;
  Values sv;
  if (c.scale) {
    scale = std::make_unique<DeviceTensor>(ACL_FLOAT, quantise ? Shape{range, c.h} : Shape{c.rows}, c.view);
    sv = scale->FillRandom(rng, Range{0.5, 2});
  }
  const Shape tokens_shape = c.tokens_type == 2 ? Shape{c.experts, 2} : Shape{range};
  DeviceTensor expanded_x(quantise ? ACL_INT8 : c.dtype, {slots, c.h}, c.view);
  DeviceTensor expanded_row(ACL_INT32, {slots}, c.view), tokens(ACL_INT64, tokens_shape, c.view);
  DeviceTensor expanded_scale(ACL_FLOAT, {slots}, c.view);
  for (DeviceTensor* t : {&expanded_x, &expanded_row, &tokens, &expanded_scale}) t->Poison();
  const Values x_poison = expanded_x.ReadView(), row_poison = expanded_row.ReadView();
  const Values tokens_poison = tokens.ReadView(), scale_poison = expanded_scale.ReadView();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeInitRoutingV3GetWorkspaceSize(
            a.Tensor(x), a.Tensor(expert_idx), scale ? a.Tensor(*scale) : nullptr, nullptr, slots, 0, c.experts, 0,
            c.tokens_type, true, c.quant_mode, c.null_range ? nullptr : a.IntArray({c.start, c.end}), c.row_idx_type,
            a.Tensor(expanded_x), a.Tensor(expanded_row), a.Tensor(tokens), a.Tensor(expanded_scale), w, e);
      },
      aclnnMoeInitRoutingV3);
  ASSERT_TRUE(run.ok()) << Describe(run);

  std::vector<int64_t> order;
  for (int64_t s = 0; s < slots; ++s) {
    const double e = ev[static_cast<size_t>(s)].real();
    if (e >= double(c.start) && e < double(c.end)) order.push_back(s);
  }
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return ev[static_cast<size_t>(a)].real() < ev[static_cast<size_t>(b)].real();
  });
  const auto kept = static_cast<int64_t>(order.size());

  // Row indices.
  Values want_row;
  std::vector<bool> row_written(static_cast<size_t>(slots), c.row_idx_type == 0);
  if (c.row_idx_type == 0) {
    want_row.assign(static_cast<size_t>(slots), -1.0);
    for (int64_t p = 0; p < kept; ++p) want_row[static_cast<size_t>(order[static_cast<size_t>(p)])] = double(p);
  } else {
    for (int64_t p = 0; p < kept; ++p) {
      want_row.push_back(double(order[static_cast<size_t>(p)]));
      row_written[static_cast<size_t>(p)] = true;
    }
  }
  ExpectKeptAndUntouched(expanded_row.ReadView(), row_poison, row_written, Exact(want_row), "expandedRowIdxOut");

  // Rows, and their scales.
  Values want_x, want_scale;
  std::vector<double> x_tolerance;
  std::vector<bool> x_written(static_cast<size_t>(slots * c.h), false), scale_written(static_cast<size_t>(slots));
  for (int64_t p = 0; p < kept; ++p) {
    const int64_t s = order[static_cast<size_t>(p)], src = s / c.k;
    const auto e = static_cast<int64_t>(ev[static_cast<size_t>(s)].real());
    std::vector<double> row;
    for (int64_t col = 0; col < c.h; ++col) {
      double v = xv[static_cast<size_t>(src * c.h + col)].real();
      if (quantise && c.scale) {
        v = static_cast<float>(static_cast<float>(v) *
                               static_cast<float>(sv[static_cast<size_t>((e - c.start) * c.h + col)].real()));
      }
      row.push_back(v);
    }
    double max = 0;
    for (double v : row) max = std::max(max, std::abs(v));
    const double row_scale = max / 127;
    for (int64_t col = 0; col < c.h; ++col) {
      x_written[static_cast<size_t>(p * c.h + col)] = true;
      want_x.push_back(quantise ? (row_scale > 0 ? std::nearbyint(row[static_cast<size_t>(col)] / row_scale) : 0.0)
                                : row[static_cast<size_t>(col)]);
      x_tolerance.push_back(quantise ? 1.0 : 0.0);  // a quotient within a roundoff of .5 may round either way
    }
    if (quantise) {
      want_scale.push_back(row_scale);
      scale_written[static_cast<size_t>(p)] = true;
    } else if (c.scale) {
      want_scale.push_back(sv[static_cast<size_t>(src)].real());
      scale_written[static_cast<size_t>(p)] = true;
    }
  }
  ExpectKeptAndUntouched(
      expanded_x.ReadView(), x_poison, quantise ? std::vector<bool>(x_written.size(), true) : x_written,
      [&] {
        Expected e{want_x, x_tolerance};
        if (quantise) {  // rows past the kept ones: CANN leaves them undefined; Canopy writes zeros
          e.values.resize(x_written.size(), 0.0);
          e.tolerance.resize(x_written.size(), 0.0);
        }
        return e;
      }(),
      "expandedXOut");
  if (quantise) {
    Expected e = RelativeTolerance(want_scale, ACL_FLOAT, 2);
    e.values.resize(static_cast<size_t>(slots), 0.0);
    e.tolerance.resize(static_cast<size_t>(slots), 0.0);
    ExpectKeptAndUntouched(expanded_scale.ReadView(), scale_poison, std::vector<bool>(static_cast<size_t>(slots), true),
                           e, "expandedScaleOut");
  } else {
    ExpectKeptAndUntouched(expanded_scale.ReadView(), scale_poison, scale_written, Exact(want_scale),
                           "expandedScaleOut");
  }

  // Counts.
  std::vector<double> counts(static_cast<size_t>(range), 0.0);
  for (int64_t s : order)
    counts[static_cast<size_t>(ev[static_cast<size_t>(s)].real()) - static_cast<size_t>(c.start)] += 1;
  if (c.tokens_type == 1) {
    ExpectNear(tokens.ReadView(), Exact(Values(counts.begin(), counts.end())), "expertTokensCountOrCumsumOut");
  } else {
    const int64_t pairs = std::min(range + 1, c.experts);
    Values want;
    for (int64_t e = 0; e < range; ++e) {
      if (counts[static_cast<size_t>(e)] > 0) {
        want.push_back(double(c.start + e));
        want.push_back(counts[static_cast<size_t>(e)]);
      }
    }
    want.resize(static_cast<size_t>(2 * pairs), 0.0);
    std::vector<bool> written(static_cast<size_t>(2 * c.experts), false);
    std::fill(written.begin(), written.begin() + 2 * pairs, true);
    ExpectKeptAndUntouched(tokens.ReadView(), tokens_poison, written, Exact(want), "expertTokensCountOrCumsumOut");
  }
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8}) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_gather_count"});
    cases.push_back({.dtype = dtype,
                     .rows = 9,
                     .k = 3,
                     .h = 7,
                     .tokens_type = 2,
                     .row_idx_type = 1,
                     .scale = true,
                     .name = t + "_scatter_key_value_scale"});
    cases.push_back({.dtype = dtype,
                     .rows = 5,
                     .k = 4,
                     .h = 3,
                     .experts = 6,
                     .start = 0,
                     .end = 6,
                     .null_range = true,
                     .view = View::kStepped,
                     .name = t + "_whole_range_stepped"});
    cases.push_back(
        {.dtype = dtype, .rows = 7, .h = 4, .scale = true, .view = View::kTransposed, .name = t + "_transposed_scale"});
    if (dtype == ACL_INT8) continue;
    cases.push_back({.dtype = dtype, .quant_mode = 1, .name = t + "_dynamic_quant"});
    cases.push_back({.dtype = dtype,
                     .rows = 8,
                     .k = 3,
                     .h = 9,
                     .quant_mode = 1,
                     .tokens_type = 2,
                     .row_idx_type = 1,
                     .scale = true,
                     .name = t + "_dynamic_quant_expert_scale"});
    cases.push_back({.dtype = dtype,
                     .rows = 6,
                     .h = 6,
                     .experts = 16,
                     .start = 5,
                     .end = 9,
                     .quant_mode = 1,
                     .scale = true,
                     .view = View::kStepped,
                     .name = t + "_dynamic_quant_stepped"});
  }
  cases.push_back({.rows = 40,
                   .k = 8,
                   .h = 16,
                   .experts = 64,
                   .start = 0,
                   .end = 64,
                   .tokens_type = 2,
                   .row_idx_type = 1,
                   .name = "many_experts_key_value"});
  cases.push_back(
      {.rows = 3, .k = 2, .experts = 8, .start = 7, .end = 8, .tokens_type = 2, .name = "last_expert_only"});
  cases.push_back({.rows = 0, .name = "no_rows"});
  return cases;
}

class MoeInitRoutingV3Test : public ::testing::TestWithParam<Case> {};

TEST_P(MoeInitRoutingV3Test, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, MoeInitRoutingV3Test, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

struct Call {
  aclDataType x = ACL_FLOAT16, expert = ACL_INT32, scale = ACL_FLOAT, expanded_x = ACL_FLOAT16, row = ACL_INT32;
  aclDataType tokens = ACL_INT64, expanded_scale = ACL_FLOAT;
  Shape x_shape = {4, 8}, expert_shape = {4, 2}, scale_shape, expanded_x_shape = {8, 8}, row_shape = {8};
  Shape tokens_shape = {4}, expanded_scale_shape = {8};
  int64_t active_num = 8, expert_num = 8, drop_pad = 0, tokens_type = 1, quant_mode = -1, row_idx_type = 0;
  bool tokens_flag = true;
  std::vector<int64_t> range = {2, 6};
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeInitRoutingV3GetWorkspaceSize(
            a.NewTensor(c.x, c.x_shape), a.NewTensor(c.expert, c.expert_shape),
            c.scale_shape.empty() ? nullptr : a.NewTensor(c.scale, c.scale_shape), nullptr, c.active_num, 0,
            c.expert_num, c.drop_pad, c.tokens_type, c.tokens_flag, c.quant_mode, a.IntArray(c.range), c.row_idx_type,
            a.NewTensor(c.expanded_x, c.expanded_x_shape), a.NewTensor(c.row, c.row_shape),
            a.NewTensor(c.tokens, c.tokens_shape), a.NewTensor(c.expanded_scale, c.expanded_scale_shape), w, e);
      },
      aclnnMoeInitRoutingV3);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(MoeInitRoutingV3Rejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.active_num = -1; })).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.quant_mode = 1;
                c.expanded_x = ACL_INT8;
                c.scale_shape = {4, 8};
              })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x = c.expanded_x = ACL_INT32; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expert = ACL_INT64; })), kInvalid, {"'expertIdx'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.scale_shape = {4};
                       c.scale = ACL_FLOAT16;
                     })),
                     kInvalid, {"'scaleOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expanded_x = ACL_FLOAT; })), kInvalid, {"'expandedXOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.quant_mode = 1; })), kInvalid, {"'expandedXOut'", "int8"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.row = ACL_INT64; })), kInvalid, {"'expandedRowIdxOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.tokens = ACL_INT32; })), kInvalid,
                     {"'expertTokensCountOrCumsumOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expanded_scale = ACL_FLOAT16; })), kInvalid, {"'expandedScaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expert_shape = {3, 2}; })), kInvalid, {"expertIdx"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {3}; })), kInvalid, {"'scaleOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.quant_mode = 1;
                       c.expanded_x = ACL_INT8;
                       c.scale_shape = {8, 8};
                     })),
                     kInvalid, {"'scaleOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.scale_shape = {4};
                       c.expanded_scale_shape = {4};
                     })),
                     kInvalid, {"'expandedScaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expanded_x_shape = {4, 8}; })), kInvalid, {"'expandedXOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.row_shape = {4}; })), kInvalid, {"'expandedRowIdxOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.tokens_shape = {8}; })), kInvalid,
                     {"'expertTokensCountOrCumsumOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.tokens_type = 2; })), kInvalid, {"'expertTokensCountOrCumsumOut'"});
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.tokens_type = 2;
                c.tokens_shape = {8, 2};
              })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.active_num = 5; })), kTiling, {"'activeNum'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.expert_num = 0; })), kTiling, {"'expertNum'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.drop_pad = 1; })), kTiling, {"'dropPadMode'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.tokens_type = 0; })), kTiling, {"'expertTokensNumType'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.tokens_flag = false; })), kTiling, {"'expertTokensNumFlag'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.quant_mode = 0; })), kTiling, {"'quantMode'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.row_idx_type = 2; })), kTiling, {"'rowIdxType'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.range = {2, 6, 7}; })), kTiling, {"'activeExpertRangeOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.range = {-1, 3}; })), kTiling, {"'activeExpertRangeOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.range = {6, 6};
                       c.tokens_shape = {0};
                     })),
                     kTiling, {"'activeExpertRangeOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.range = {4, 12};
                       c.tokens_shape = {8};
                     })),
                     kTiling, {"'activeExpertRangeOptional'", "expertNum"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.expert_num = 6000;
                       c.range = {0, 5121};
                       c.tokens_type = 2;
                       c.tokens_shape = {6000, 2};
                     })),
                     kTiling, {"'activeExpertRangeOptional'", "5120"});
}

}  // namespace
}  // namespace canopy_test
