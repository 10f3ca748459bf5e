// aclnnMoeInitRoutingQuantV2 against an exact reference: MoeInitRoutingV2's
// routing (the slots sorted by expert, stably; drop-less, active and drop/pad
// forms; the token counts) with the expanded rows quantised as CANN's A2
// kernels do: quantMode 0 in half arithmetic (x, scale, offset, x * scale and
// the sum each rounded to half, then half to even, saturating), quantMode 1
// per row in f32 (times the smooth row, one for all or the row's expert's:
// scale = max|row| / 127, round(row / scale) half away from zero), padding
// rows zero with zero scales. Every x dtype, strided views, the doc's
// example, no rows, no columns, a bad expert number and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_moe_init_routing_quant_v2.h"
#include "llm_test_support.h"
#include "moe_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT;
  int64_t rows = 7, k = 3, h = 20, experts = 5;
  int64_t active = 0;  // drop-less: 0 all rows * k, > 0 at most that many
  bool drop_pad = false;
  int64_t capacity = 0;
  int64_t count_flag = 0;  // 1 running sum, 2 counts (drop-less)
  bool before_capacity = false;
  int64_t quant_mode = 0;
  float scale = 21.7F, offset = 1.25F;  // static
  int64_t smooth_rows = 0;              // dynamic: 0 none, 1 or experts
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

double InHalf(double v) { return HalfToDouble(DoubleToHalf(v)); }

int64_t ExpandedRows(const Case& c) {
  if (c.drop_pad) return c.experts * c.capacity;
  return c.active > 0 ? std::min(c.active, c.rows * c.k) : c.rows * c.k;
}

struct Data {
  std::unique_ptr<DeviceTensor> x, expert_idx, scale, offset, expanded_x, expanded_row, tokens, dynamic_scale;
  Values xv, sv;
  std::vector<int64_t> experts;
};

Data Make(const Case& c, Rng& rng) {
  Data d;
  d.x = std::make_unique<DeviceTensor>(c.dtype, Shape{c.rows, c.h}, c.view);
  d.xv = d.x->FillRandom(rng, Range{-3, 3});
  for (int64_t t = 0; t < c.rows * c.k; ++t) d.experts.push_back(static_cast<int64_t>(rng.Uniform(0, c.experts)));
  d.expert_idx = std::make_unique<DeviceTensor>(ACL_INT32, Shape{c.rows, c.k}, c.view);
  d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  if (c.quant_mode == 0) {
    d.scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{1});
    d.scale->WriteView(Values{c.scale});
    d.offset = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{1});
    d.offset->WriteView(Values{c.offset});
  } else if (c.smooth_rows > 0) {
    d.scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{c.smooth_rows, c.h}, c.view);
    d.sv = d.scale->FillRandom(rng, Range{0.25, 4});
  }
  const int64_t expanded = ExpandedRows(c);
  const Shape expanded_shape = c.drop_pad ? Shape{c.experts, c.capacity, c.h} : Shape{expanded, c.h};
  d.expanded_x = std::make_unique<DeviceTensor>(ACL_INT8, expanded_shape, c.drop_pad ? View::kContiguous : c.view);
  d.expanded_row = std::make_unique<DeviceTensor>(ACL_INT32, Shape{c.rows * c.k}, c.view);
  d.dynamic_scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{expanded}, c.view);
  for (DeviceTensor* t : {d.expanded_x.get(), d.expanded_row.get(), d.dynamic_scale.get()}) t->Poison();
  if (c.count_flag > 0 || c.before_capacity) {
    d.tokens = std::make_unique<DeviceTensor>(ACL_INT32, Shape{c.experts});
    d.tokens->Poison();
  }
  return d;
}

OpRun RunQuantV2(const Case& c, Data& d) {
  const auto t = [](OpArgs& a, const std::unique_ptr<DeviceTensor>& p) { return p ? a.Tensor(*p) : nullptr; };
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeInitRoutingQuantV2GetWorkspaceSize(
            t(a, d.x), t(a, d.expert_idx), t(a, d.scale), t(a, d.offset), c.active, c.capacity, c.experts,
            c.drop_pad ? 1 : 0, c.count_flag, c.before_capacity, c.quant_mode, t(a, d.expanded_x), t(a, d.expanded_row),
            c.count_flag > 0 ? t(a, d.tokens) : nullptr, c.before_capacity ? t(a, d.tokens) : nullptr,
            t(a, d.dynamic_scale), w, e);
      },
      aclnnMoeInitRoutingQuantV2);
}

// The static element: half(half(half(x) * half(scale)) + half(offset)), half to even, saturated.
double StaticQuantised(double x, const Case& c) {
  return std::clamp(std::nearbyint(InHalf(InHalf(InHalf(x) * InHalf(c.scale)) + InHalf(c.offset))), -128.0, 127.0);
}

// The dynamic row in f32: x (times the smooth row), its scale and round(v / scale) half away from zero.
void DynamicQuantised(const Case& c, const Data& d, int64_t row, int64_t expert, Values& out, Values& scales) {
  std::vector<float> v(static_cast<size_t>(c.h));
  float max = 0.0F;
  for (int64_t j = 0; j < c.h; ++j) {
    float value = static_cast<float>(d.xv[static_cast<size_t>(row * c.h + j)].real());
    if (c.smooth_rows > 0) {
      const int64_t s_row = c.smooth_rows == 1 ? 0 : expert;
      value *= static_cast<float>(d.sv[static_cast<size_t>(s_row * c.h + j)].real());
    }
    v[static_cast<size_t>(j)] = value;
    max = std::max(max, std::abs(value));
  }
  const float scale = max / 127.0F;
  scales.push_back(scale);
  for (float value : v) {
    out.push_back(scale > 0.0F ? std::clamp(std::round(value / scale), -128.0F, 127.0F) : 0.0F);
  }
}

void Check(const Case& c, const Data& d) {
  const MoeRouting r = RouteMoeV2(d.experts, c.k, ExpandedRows(c), c.drop_pad, c.capacity, c.experts);
  Values want_x, want_scale;
  for (size_t p = 0; p < r.source.size(); ++p) {
    const int64_t row = r.source[p];
    if (row < 0) {  // padding: zero rows, zero scales
      want_x.insert(want_x.end(), static_cast<size_t>(c.h), Value(0.0));
      want_scale.push_back(0.0);
    } else if (c.quant_mode == 0) {
      for (int64_t j = 0; j < c.h; ++j) {
        want_x.push_back(StaticQuantised(d.xv[static_cast<size_t>(row * c.h + j)].real(), c));
      }
    } else {
      DynamicQuantised(c, d, row, r.expert[p], want_x, want_scale);
    }
  }
  ExpectExact(d.expanded_x->ReadView(), want_x, "expandedXOut");
  ExpectExact(d.expanded_row->ReadView(), r.row_index, "expandedRowIdxOut");
  if (c.quant_mode == 1) ExpectExact(d.dynamic_scale->ReadView(), want_scale, "dynamicQuantScaleOutOptional");
  if (d.tokens) ExpectExact(d.tokens->ReadView(), MoeTokenCounts(r, c.count_flag), "expert tokens");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    Case s;
    s.dtype = dtype;
    s.count_flag = 1;
    s.name = std::string("static_dropless_cumsum_") + Name(dtype);
    cases.push_back(s);
    Case active = s;
    active.active = 10;
    active.count_flag = 2;
    active.view = View::kTransposed;
    active.scale = 70.3F;  // |x * scale| up to 211: saturates both ways
    active.offset = -2.5F;
    active.name = std::string("static_active10_counts_strided_saturating_") + Name(dtype);
    cases.push_back(active);
    Case drop = s;
    drop.drop_pad = true;
    drop.capacity = 3;
    drop.count_flag = 0;
    drop.before_capacity = true;
    drop.name = std::string("static_drop_pad_") + Name(dtype);
    cases.push_back(drop);
    Case dynamic = s;
    dynamic.quant_mode = 1;
    dynamic.name = std::string("dynamic_dropless_") + Name(dtype);
    cases.push_back(dynamic);
    Case smooth = dynamic;
    smooth.smooth_rows = smooth.experts;
    smooth.view = View::kTransposed;
    smooth.name = std::string("dynamic_expert_smooth_strided_") + Name(dtype);
    cases.push_back(smooth);
    Case dynamic_drop = drop;
    dynamic_drop.quant_mode = 1;
    dynamic_drop.smooth_rows = dynamic_drop.experts;
    dynamic_drop.name = std::string("dynamic_drop_pad_expert_smooth_") + Name(dtype);
    cases.push_back(dynamic_drop);
  }
  Case ties;
  ties.rows = 33;
  ties.k = 4;
  ties.h = 300;
  ties.experts = 16;
  ties.active = 40;
  ties.scale = 0.5F;
  ties.offset = 0.5F;  // x * 0.5 + 0.5 often lands halfway between integers
  ties.name = "static_wide_ties";
  cases.push_back(ties);
  Case one_smooth;
  one_smooth.quant_mode = 1;
  one_smooth.smooth_rows = 1;
  one_smooth.active = 8;
  one_smooth.count_flag = 2;
  one_smooth.name = "dynamic_one_smooth_active8";
  cases.push_back(one_smooth);
  Case drop1;
  drop1.quant_mode = 1;
  drop1.drop_pad = true;
  drop1.capacity = 1;
  drop1.experts = 8;
  drop1.rows = 9;
  drop1.k = 2;
  drop1.name = "dynamic_drop_pad_capacity1";
  cases.push_back(drop1);
  return cases;
}

class MoeInitRoutingQuantV2Test : public ::testing::TestWithParam<Case> {};
TEST_P(MoeInitRoutingQuantV2Test, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  const OpRun run = RunQuantV2(c, d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Check(c, d);
}
INSTANTIATE_TEST_SUITE_P(All, MoeInitRoutingQuantV2Test, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// A dynamic row of values that land on .5 exactly rounds away from zero: max 127 gives scale 1.
TEST(MoeInitRoutingQuantV2, DynamicTiesRoundAwayFromZero) {
  Case c;
  c.quant_mode = 1;
  c.rows = 1;
  c.k = 1;
  c.h = 6;
  c.experts = 1;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  d.x->WriteView(Values{127, 2.5, -2.5, 0.5, -0.5, 3.5});
  d.xv = d.x->ReadView();
  ASSERT_TRUE(RunQuantV2(c, d).ok());
  ExpectExact(d.expanded_x->ReadView(), Values{127, 3, -3, 1, -1, 4}, "expandedXOut");
  ExpectExact(d.dynamic_scale->ReadView(), Values{1}, "dynamicQuantScaleOutOptional");
}

// The doc's example: x rows 0.1, 0.2, 0.3, experts [[1, 2], [0, 1], [0, 2]], drop/pad with capacity 2,
// scale 0.3452 and offset 1.8369, the counts before the drop; its dynamicQuantScaleOutOptional is left alone.
TEST(MoeInitRoutingQuantV2, DocExample) {
  Case c;
  c.rows = 3;
  c.k = 2;
  c.h = 4;
  c.experts = 3;
  c.drop_pad = true;
  c.capacity = 2;
  c.before_capacity = true;
  c.scale = 0.3452F;
  c.offset = 1.8369F;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  d.x->WriteView(Values{0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3, 0.3});
  d.xv = d.x->ReadView();
  d.experts = {1, 2, 0, 1, 0, 2};
  d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  const Values scale_poison = d.dynamic_scale->ReadView();
  ASSERT_TRUE(RunQuantV2(c, d).ok());
  ExpectExact(d.expanded_row->ReadView(), Values{2, 4, 0, 3, 1, 5}, "expandedRowIdxOut");
  ExpectExact(d.tokens->ReadView(), Values{2, 2, 2}, "expertTokensBeforeCapacityOutOptional");
  ExpectExact(d.expanded_x->ReadView(), Values(24, 2.0), "expandedXOut");
  const Values scales = d.dynamic_scale->ReadView();
  for (size_t i = 0; i < scales.size(); ++i) {
    EXPECT_TRUE(std::isnan(scales[i].real()) || scales[i].real() == scale_poison[i].real()) << i;
  }
  Check(c, d);
}

TEST(MoeInitRoutingQuantV2, EmptyInputs) {
  for (int64_t mode : {0, 1}) {
    Case none;  // no rows: zero counts, nothing else
    none.quant_mode = mode;
    none.rows = 0;
    none.count_flag = 2;
    Rng rng = Rng::ForCurrentTest();
    Data d = Make(none, rng);
    ASSERT_TRUE(RunQuantV2(none, d).ok());
    ExpectExact(d.tokens->ReadView(), Values(5, 0.0), "expertTokensCountOrCumsumOutOptional");
    Case columns = none;  // no columns: the routing stands, dynamic scales zero
    columns.rows = 7;
    columns.h = 0;
    d = Make(columns, rng);
    ASSERT_TRUE(RunQuantV2(columns, d).ok());
    Check(columns, d);
  }
}

// An expert number outside [0, expertNum) fails the run where it picks a smooth row, a count or a padded slot.
TEST(MoeInitRoutingQuantV2, ExpertOutOfRangeFailsTheRun) {
  Case smooth;
  smooth.quant_mode = 1;
  smooth.smooth_rows = smooth.experts;
  Case drop;
  drop.drop_pad = true;
  drop.capacity = 2;
  for (const Case& c : {smooth, drop}) {
    Rng rng = Rng::ForCurrentTest();
    Data d = Make(c, rng);
    d.experts[4] = c.experts;
    d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
    const OpRun run = RunQuantV2(c, d);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync == ACL_SUCCESS && run.phase2 == ACLNN_SUCCESS, true) << Describe(run);
  }
  Case plain;  // without a smooth row per expert, counts or drop/pad any expert number sorts
  plain.quant_mode = 1;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(plain, rng);
  d.experts[4] = 1000;
  d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  ASSERT_TRUE(RunQuantV2(plain, d).ok());
  Check(plain, d);
}

TEST(MoeInitRoutingQuantV2Rejects, EachCase) {
  const auto expect = [](Case c, const std::function<void(Case&, Data&)>& edit, aclnnStatus status,
                         std::vector<std::string> words) {
    Rng rng(3);
    Data d = Make(c, rng);
    edit(c, d);
    ExpectRejectedWith(RunQuantV2(c, d), status, words);
  };
  Case s;
  Case dynamic;
  dynamic.quant_mode = 1;
  // The op definition's dtypes.
  expect(s, [](Case&, Data& d) { d.x = std::make_unique<DeviceTensor>(ACL_INT8, Shape{7, 20}); }, kInvalid, {"'x'"});
  expect(s,
         [](Case&, Data& d) {
           d.expert_idx = std::make_unique<DeviceTensor>(ACL_INT64, Shape{7, 3});
         },
         kInvalid, {"'expertIdx'"});
  expect(s, [](Case&, Data& d) { d.scale = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{1}); }, kInvalid,
         {"'scaleOptional'"});
  expect(s, [](Case&, Data& d) { d.offset = std::make_unique<DeviceTensor>(ACL_INT32, Shape{1}); }, kInvalid,
         {"'offsetOptional'"});
  expect(s,
         [](Case&, Data& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{21, 20});
         },
         kInvalid, {"'expandedXOut'"});
  expect(s, [](Case&, Data& d) { d.expanded_row = std::make_unique<DeviceTensor>(ACL_INT64, Shape{21}); }, kInvalid,
         {"'expandedRowIdxOut'"});
  expect(dynamic, [](Case&, Data& d) { d.dynamic_scale = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{21}); },
         kInvalid, {"'dynamicQuantScaleOutOptional'"});
  // The tiling's checks.
  expect(s, [](Case& c, Data&) { c.quant_mode = 2; }, kTiling, {"'quantMode'"});
  expect(s, [](Case&, Data& d) { d.x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{140}); }, kTiling, {"2-D"});
  expect(s,
         [](Case&, Data& d) {
           d.expert_idx = std::make_unique<DeviceTensor>(ACL_INT32, Shape{6, 3});
         },
         kTiling, {"same rows"});
  expect(s, [](Case& c, Data&) { c.active = -1; }, kTiling, {"'activeNum'"});
  expect(s, [](Case& c, Data&) { c.experts = -1; }, kTiling, {"'expertNum'"});
  expect(s, [](Case& c, Data&) { c.count_flag = 3; }, kTiling, {"'expertTokensCountOrCumsumFlag'"});
  expect(s,
         [](Case& c, Data& d) {
           c.count_flag = 1;
           d.tokens = std::make_unique<DeviceTensor>(ACL_INT32, Shape{4});
         },
         kTiling, {"'expertTokensCountOrCumsumOut'"});
  expect(s,
         [](Case&, Data& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_INT8, Shape{20, 20});
         },
         kTiling, {"'expandedXOut'"});
  expect(s, [](Case&, Data& d) { d.expanded_row = std::make_unique<DeviceTensor>(ACL_INT32, Shape{20}); }, kTiling,
         {"'expandedRowIdxOut'"});
  Case drop = s;
  drop.drop_pad = true;
  drop.capacity = 2;
  for (int64_t capacity : {0, 8}) {
    expect(drop, [capacity](Case& c, Data&) { c.capacity = capacity; }, kTiling, {"expertCapacity"});
  }
  expect(drop,
         [](Case&, Data& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_INT8, Shape{10, 20});
         },
         kTiling, {"'expandedXOut'"});
  // Static needs scale and offset of one element each.
  expect(s, [](Case&, Data& d) { d.scale.reset(); }, kTiling, {"'scaleOptional'"});
  expect(s, [](Case&, Data& d) { d.offset.reset(); }, kTiling, {"'offsetOptional'"});
  expect(s, [](Case&, Data& d) { d.scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{2}); }, kTiling,
         {"'scaleOptional'"});
  expect(s,
         [](Case&, Data& d) {
           d.offset = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{1, 1});
         },
         kTiling, {"'offsetOptional'"});
  // Dynamic needs its scales out, one per expanded row, and smooth rows [1 or expertNum, h].
  expect(dynamic, [](Case&, Data& d) { d.dynamic_scale.reset(); }, kTiling, {"'dynamicQuantScaleOutOptional'"});
  expect(dynamic, [](Case&, Data& d) { d.dynamic_scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{20}); },
         kTiling, {"'dynamicQuantScaleOutOptional'"});
  expect(dynamic,
         [](Case&, Data& d) {
           d.scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{4, 20});
         },
         kTiling, {"'scaleOptional'"});
  expect(dynamic,
         [](Case&, Data& d) {
           d.scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{1, 19});
         },
         kTiling, {"'scaleOptional'"});
  expect(dynamic, [](Case&, Data& d) { d.scale = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{20}); }, kTiling,
         {"'scaleOptional'"});
}

}  // namespace
}  // namespace canopy_test
