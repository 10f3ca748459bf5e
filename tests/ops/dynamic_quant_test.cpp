// aclnnDynamicQuant and aclnnDynamicQuantV2 against a float64 reference:
// per-row scale max|x * smooth| / q_max and y = round-half-even(x * smooth /
// scale), or V2's asymmetric scale (max - min) / (q_max - q_min) with offset
// q_max - max / scale, and V2's per-group smooth scales picked by cumulative
// row counts; INT8, INT4 (two a byte) and INT32 (eight INT4 a word) outputs,
// f16 and bf16, ranks 2-4, strided views, zero rows, empty tensors, the docs'
// examples and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "aclnnop/aclnn_dynamic_quant.h"
#include "aclnnop/aclnn_dynamic_quant_v2.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType x = ACL_FLOAT16, y = ACL_INT8;
  Shape shape = {4, 32};
  bool smooth = false;
  View view = View::kContiguous;
  bool zero_row = false;
  std::string name;
  bool v2 = false, asymmetric = false;  // aclnnDynamicQuantV2; its offsetOut
  std::vector<int64_t> group_counts;    // V2's groupIndexOptional (cumulative rows), smooth then per group
  aclDataType group_dtype = ACL_INT32;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

Case MakeCase(aclDataType x, aclDataType y, Shape shape, bool smooth, View view, bool zero_row, std::string name) {
  Case c;
  c.x = x;
  c.y = y;
  c.shape = std::move(shape);
  c.smooth = smooth;
  c.view = view;
  c.zero_row = zero_row;
  c.name = std::move(name);
  return c;
}

// The group of each row: the first whose cumulative count is above it (all 0 without groups).
std::vector<size_t> RowGroups(const std::vector<int64_t>& counts, int64_t rows) {
  std::vector<size_t> groups(static_cast<size_t>(rows), 0);
  for (int64_t r = 0; r < rows && !counts.empty(); ++r) {
    size_t g = 0;
    while (counts[g] <= r) ++g;
    groups[static_cast<size_t>(r)] = g;
  }
  return groups;
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.x, c.shape, c.view);
  Values xv = x.FillRandom(rng, Range{-4, 4});
  const int64_t columns = c.shape.back();
  const int64_t rows = NumElements(c.shape) / columns;
  if (c.zero_row && rows > 1) {
    for (int64_t j = 0; j < columns; ++j) xv[static_cast<size_t>(columns + j)] = 0.0;
    x.WriteView(xv);
  }
  const auto groups = static_cast<int64_t>(c.group_counts.size());
  std::unique_ptr<DeviceTensor> smooth, group_index;
  Values sv(static_cast<size_t>(columns), 1.0);
  if (c.smooth) {
    smooth = std::make_unique<DeviceTensor>(c.x, groups > 0 ? Shape{groups, columns} : Shape{columns});
    sv = smooth->FillRandom(rng, Range{0.5, 2});
  }
  if (groups > 0) {
    group_index = std::make_unique<DeviceTensor>(c.group_dtype, Shape{groups});
    group_index->WriteView(Values(c.group_counts.begin(), c.group_counts.end()));
  }
  const std::vector<size_t> row_group = RowGroups(c.group_counts, rows);
  Shape y_shape = c.shape;
  if (c.y == ACL_INT32) y_shape.back() /= 8;
  const View out_view = c.y == ACL_INT8 ? c.view : View::kContiguous;
  DeviceTensor y(c.y, y_shape, out_view);
  const Shape row_shape(c.shape.begin(), c.shape.end() - 1);
  DeviceTensor scale(ACL_FLOAT, row_shape, c.view), offset(ACL_FLOAT, row_shape, c.view);
  y.Poison();
  scale.Poison();
  offset.Poison();
  const OpRun run =
      c.v2
          ? RunOp(
                [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                  return aclnnDynamicQuantV2GetWorkspaceSize(
                      a.Tensor(x), smooth ? a.Tensor(*smooth) : nullptr, group_index ? a.Tensor(*group_index) : nullptr,
                      c.y, a.Tensor(y), a.Tensor(scale), c.asymmetric ? a.Tensor(offset) : nullptr, w, e);
                },
                aclnnDynamicQuantV2)
          : RunOp(
                [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                  return aclnnDynamicQuantGetWorkspaceSize(a.Tensor(x), smooth ? a.Tensor(*smooth) : nullptr,
                                                           a.Tensor(y), a.Tensor(scale), w, e);
                },
                aclnnDynamicQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double q_max = c.y == ACL_INT8 ? 127 : 7;
  const double q_min = -q_max - 1;
  Values want_scale, want_offset;
  std::vector<int> got = QuantisedValues(y, c.y, NumElements(c.shape));
  int mismatches = 0;
  for (int64_t i = 0; i < rows; ++i) {
    std::vector<double> v(static_cast<size_t>(columns));
    const size_t s_base = row_group[static_cast<size_t>(i)] * static_cast<size_t>(columns);
    for (int64_t j = 0; j < columns; ++j) {
      v[static_cast<size_t>(j)] =
          xv[static_cast<size_t>(i * columns + j)].real() * sv[s_base + static_cast<size_t>(j)].real();
    }
    const auto [low, high] = std::minmax_element(v.begin(), v.end());
    double s = std::max(std::abs(*low), std::abs(*high)) / q_max;
    double shift = 0;
    if (c.asymmetric) {
      s = std::max((*high - *low) / (q_max - q_min), 1e-12);
      shift = q_max - *high / s;
      want_offset.push_back(shift);
    }
    want_scale.push_back(s);
    for (int64_t j = 0; j < columns; ++j) {
      const double exact = s > 0 ? v[static_cast<size_t>(j)] / s + shift : 0;
      const double want = std::clamp(std::nearbyint(exact), c.asymmetric ? q_min : -q_max, q_max);
      const int g = got[static_cast<size_t>(i * columns + j)];
      // Within f32 rounding of a half-way point either neighbour is right.
      const bool near_half = std::abs(std::abs(exact - std::trunc(exact)) - 0.5) < 1e-4;
      if (g != want && !(near_half && std::abs(g - exact) <= 0.5 + 1e-4)) {
        if (++mismatches <= 5)
          ADD_FAILURE() << "y[" << i << "," << j << "] = " << g << ", want " << want << " (" << exact << ")";
      }
    }
  }
  ExpectNear(scale.ReadView(), RelativeTolerance(want_scale, ACL_FLOAT, 4), "scaleOut");
  if (c.asymmetric) {
    // offset = q_max - max / scale: f32 rounding of a quotient near q_max - q_min.
    ExpectNear(offset.ReadView(), Expected{want_offset, std::vector<double>(want_offset.size(), 1e-3)}, "offsetOut");
  }
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType x : {ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType y : {ACL_INT8, ACL_INT4, ACL_INT32}) {
      const std::string t = std::string(Name(x)) + "_" + (y == ACL_INT8 ? "int8" : y == ACL_INT4 ? "int4" : "int32");
      cases.push_back(MakeCase(x, y, {4, 32}, false, View::kContiguous, false, t + "_2d"));
      cases.push_back(MakeCase(x, y, {2, 3, 64}, true, View::kContiguous, true, t + "_3d_smooth_zero_row"));
      cases.push_back(MakeCase(x, y, {2, 2, 2, 16}, true, View::kContiguous, false, t + "_4d_smooth"));
    }
    const std::string t = Name(x);
    cases.push_back(MakeCase(x, ACL_INT8, {6, 40}, true, View::kTransposed, false, t + "_int8_transposed_views"));
    cases.push_back(MakeCase(x, ACL_INT8, {3, 4, 10}, false, View::kStepped, true, t + "_int8_stepped_views"));
    cases.push_back(MakeCase(x, ACL_INT4, {5, 18}, true, View::kTransposed, false, t + "_int4_strided_x"));
  }
  return cases;
}

// DynamicQuantV2: symmetric and asymmetric, ungrouped and grouped (INT32 / INT64 counts).
std::vector<Case> V2Cases() {
  std::vector<Case> cases;
  for (aclDataType x : {ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType y : {ACL_INT8, ACL_INT4, ACL_INT32}) {
      const std::string t = std::string(Name(x)) + "_" + (y == ACL_INT8 ? "int8" : y == ACL_INT4 ? "int4" : "int32");
      Case sym = MakeCase(x, y, {4, 32}, true, View::kContiguous, false, t + "_symmetric_smooth");
      sym.v2 = true;
      cases.push_back(sym);
      Case asym = MakeCase(x, y, {2, 3, 64}, false, View::kContiguous, true, t + "_asymmetric_zero_row");
      asym.v2 = asym.asymmetric = true;
      cases.push_back(asym);
      Case grouped = MakeCase(x, y, {6, 16}, true, View::kContiguous, false, t + "_asymmetric_groups");
      grouped.v2 = grouped.asymmetric = true;
      grouped.group_counts = {2, 2, 6};  // rows 0-1: group 0, none for group 1, rows 2-5: group 2
      grouped.group_dtype = y == ACL_INT4 ? ACL_INT64 : ACL_INT32;
      cases.push_back(grouped);
    }
    const std::string t = Name(x);
    Case grouped_sym = MakeCase(x, ACL_INT8, {2, 4, 24}, true, View::kStepped, false, t + "_symmetric_groups_stepped");
    grouped_sym.v2 = true;
    grouped_sym.group_counts = {1, 5, 8, 9};  // the last count past the rows
    grouped_sym.group_dtype = ACL_INT64;
    cases.push_back(grouped_sym);
    Case transposed =
        MakeCase(x, ACL_INT8, {6, 40}, true, View::kTransposed, false, t + "_asymmetric_transposed_views");
    transposed.v2 = transposed.asymmetric = true;
    cases.push_back(transposed);
  }
  return cases;
}

class DynamicQuantTest : public ::testing::TestWithParam<Case> {};

TEST_P(DynamicQuantTest, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, DynamicQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });
INSTANTIATE_TEST_SUITE_P(V2, DynamicQuantTest, ::testing::ValuesIn(V2Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

TEST(DynamicQuant, EmptyTensorsSucceed) {
  for (const Shape& shape : {Shape{0, 16}, Shape{3, 0}}) {
    DeviceTensor x(ACL_FLOAT16, shape), y(ACL_INT8, shape), scale(ACL_FLOAT, {shape[0]});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDynamicQuantGetWorkspaceSize(a.Tensor(x), nullptr, a.Tensor(y), a.Tensor(scale), w, e);
        },
        aclnnDynamicQuant);
    EXPECT_TRUE(run.ok()) << Describe(run);
  }
}

// The doc's example: x[i, j] = 32 i + j, smooth[j] = 32 j + 1 (f16, 4 x 32), INT8.
TEST(DynamicQuant, DocExample) {
  DeviceTensor x(ACL_FLOAT16, {4, 32}), smooth(ACL_FLOAT16, {32}), y(ACL_INT8, {4, 32}), scale(ACL_FLOAT, {4});
  Values xv, sv;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 32; ++j) xv.push_back(static_cast<double>(i * 32 + j));
  }
  for (int j = 0; j < 32; ++j) sv.push_back(static_cast<double>(j * 32 + 1));
  x.WriteView(xv);
  smooth.WriteView(sv);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnDynamicQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values got = y.ReadView();
  const Values got_scale = scale.ReadView();
  for (int i = 0; i < 4; ++i) {
    const double max = (i * 32 + 31) * (31 * 32 + 1.0);
    EXPECT_NEAR(got_scale[static_cast<size_t>(i)].real(), max / 127, max / 127 * 1e-6);
    EXPECT_EQ(got[static_cast<size_t>(i * 32 + 31)].real(), 127);  // the row maximum
    EXPECT_EQ(got[static_cast<size_t>(i * 32)].real(), std::nearbyint(i * 32 * 127 / max));
  }
}

// A row holding NaN quantises with a NaN scale (its maximum is NaN, as
// PyTorch's amax gives) and every value 0; a row holding inf with an infinite
// scale, its finite values 0 and the infinity 0 too (inf / inf); other rows as
// usual. An adversarial pass found the NaN dropped from the maximum (a finite
// scale) and NaN converted to int8 (undefined).
TEST(DynamicQuant, NanAndInfinityRows) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const bool asymmetric : {false, true}) {
    SCOPED_TRACE(asymmetric ? "asymmetric (V2)" : "symmetric");
    DeviceTensor x(ACL_FLOAT16, {3, 4}), y(ACL_INT8, {3, 4}), scale(ACL_FLOAT, {3}), offset(ACL_FLOAT, {3});
    x.WriteView({1, nan, 2, 3, -1, inf, 2, 0.5, 127, -127, 63.5, 1});
    y.Poison();
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return asymmetric
                     ? aclnnDynamicQuantV2GetWorkspaceSize(a.Tensor(x), nullptr, nullptr, 2, a.Tensor(y),
                                                           a.Tensor(scale), a.Tensor(offset), w, e)
                     : aclnnDynamicQuantGetWorkspaceSize(a.Tensor(x), nullptr, a.Tensor(y), a.Tensor(scale), w, e);
        },
        asymmetric ? aclnnDynamicQuantV2 : aclnnDynamicQuant);
    ASSERT_TRUE(run.ok()) << Describe(run);
    const Values q = y.ReadView(), s = scale.ReadView();
    EXPECT_TRUE(std::isnan(s[0].real())) << "a NaN row's scale: " << s[0].real();
    for (int j = 0; j < 4; ++j) EXPECT_EQ(q[static_cast<size_t>(j)].real(), 0) << "NaN row, column " << j;
    if (!asymmetric) {
      EXPECT_EQ(s[1].real(), inf);
      for (int j = 0; j < 4; ++j) EXPECT_EQ(q[static_cast<size_t>(4 + j)].real(), 0) << "inf row, column " << j;
      EXPECT_EQ(s[2].real(), 1.0);
      ExpectExact(Values(q.begin() + 8, q.end()), {127, -127, 64, 1}, "an ordinary row (half to even)");
    }
  }
}

struct Call {
  aclDataType x = ACL_FLOAT16, smooth = ACL_FLOAT16, y = ACL_INT8, scale = ACL_FLOAT;
  Shape x_shape = {4, 16}, smooth_shape, y_shape = {4, 16}, scale_shape = {4};
  bool x_null = false, y_null = false;
  View y_view = View::kContiguous;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicQuantGetWorkspaceSize(
            c.x_null ? nullptr : a.NewTensor(c.x, c.x_shape),
            c.smooth_shape.empty() ? nullptr : a.NewTensor(c.smooth, c.smooth_shape),
            c.y_null ? nullptr : a.NewTensor(c.y, c.y_shape, c.y_view), a.NewTensor(c.scale, c.scale_shape), w, e);
      },
      aclnnDynamicQuant);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(DynamicQuantRejects, EachCase) {
  EXPECT_TRUE(RunCall(Call{}).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x = ACL_FLOAT; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_FLOAT8_E4M3FN; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_UINT8; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale = ACL_FLOAT16; })), kInvalid, {"'scaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.y_shape = {16};
                       c.scale_shape = {1};
                     })),
                     kInvalid, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.smooth_shape = {16};
                       c.smooth = ACL_BF16;
                     })),
                     kInvalid, {"'smoothScalesOptional'", "match"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.smooth_shape = {4}; })), kInvalid, {"'smoothScalesOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y_shape = {4, 8}; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {4, 1}; })), kInvalid, {"'scaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.y = ACL_INT4;
                       c.x_shape = c.y_shape = {4, 15};
                     })),
                     kInvalid, {"even"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.y = ACL_INT32;
                       c.x_shape = {4, 12};
                       c.y_shape = {4, 1};
                     })),
                     kInvalid, {"multiple of 8"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_INT32; })), kInvalid, {"'yOut'"});  // [4, 16]: needs [4, 2]
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.y = ACL_INT32;
                c.y_shape = {4, 2};
              })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.y = ACL_INT4;
                       c.y_view = View::kTransposed;
                     })),
                     kInvalid, {"contiguous"});
}

// ---- DynamicQuantV2 ----------------------------------------------------------------------------

// The doc's example: x[i, j] = 32 i + j, smooth[g, j] = 32 g + j (f16), groups {2, 4, 4, 4} (the doc
// fills two), INT8 with offsetOut: rows 0-1 take smooth row 0, rows 2-3 row 1; each row's minimum
// maps to -128 and its maximum to 127.
TEST(DynamicQuantV2, DocExample) {
  DeviceTensor x(ACL_FLOAT16, {4, 32}), smooth(ACL_FLOAT16, {4, 32}), group(ACL_INT32, {4}), y(ACL_INT8, {4, 32}),
      scale(ACL_FLOAT, {4}), offset(ACL_FLOAT, {4});
  Values xv, sv;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 32; ++j) {
      xv.push_back(static_cast<double>(i * 32 + j));
      sv.push_back(static_cast<double>(i * 32 + j));
    }
  }
  x.WriteView(xv);
  smooth.WriteView(sv);
  group.WriteView({2, 4, 4, 4});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicQuantV2GetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), a.Tensor(group), 2, a.Tensor(y),
                                                   a.Tensor(scale), a.Tensor(offset), w, e);
      },
      aclnnDynamicQuantV2);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values got = y.ReadView(), got_scale = scale.ReadView();
  for (int i = 0; i < 4; ++i) {
    const int g = i < 2 ? 0 : 1;
    const double low = (i * 32.0) * (g * 32.0), high = (i * 32 + 31.0) * (g * 32 + 31.0);
    EXPECT_NEAR(got_scale[static_cast<size_t>(i)].real(), (high - low) / 255, high / 255 * 1e-6) << "row " << i;
    EXPECT_EQ(got[static_cast<size_t>(i * 32)].real(), -128) << "row " << i;
    EXPECT_EQ(got[static_cast<size_t>(i * 32 + 31)].real(), 127) << "row " << i;
  }
}

OpRun RunV2(const Shape& x_shape, const Shape& smooth_shape, const Shape& group_shape, const Values& counts,
            bool asymmetric) {
  DeviceTensor x(ACL_FLOAT16, x_shape), y(ACL_INT8, x_shape);
  DeviceTensor scale(ACL_FLOAT, Shape(x_shape.begin(), x_shape.end() - 1)), offset(ACL_FLOAT, scale.shape());
  DeviceTensor smooth(ACL_FLOAT16, smooth_shape), group(ACL_INT64, group_shape);
  if (!counts.empty()) group.WriteView(counts);
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicQuantV2GetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), a.Tensor(group), 2, a.Tensor(y),
                                                   a.Tensor(scale), asymmetric ? a.Tensor(offset) : nullptr, w, e);
      },
      aclnnDynamicQuantV2);
}

TEST(DynamicQuantV2, EmptyAndUncoveredRows) {
  const OpRun empty = RunV2({0, 16}, {2, 16}, {2}, {}, true);
  EXPECT_TRUE(empty.ok()) << Describe(empty);
  EXPECT_EQ(empty.workspaceSize, 0U);
  // Counts that stop at row 3 of 5 leave rows 3-4 without smooth scales: the run fails.
  const OpRun uncovered = RunV2({5, 16}, {2, 16}, {2}, {1, 3}, false);
  EXPECT_EQ(uncovered.phase1, ACLNN_SUCCESS) << Describe(uncovered);
  EXPECT_NE(uncovered.sync, ACL_SUCCESS) << Describe(uncovered);
}

TEST(DynamicQuantV2Rejects, EachCase) {
  const auto run = [](aclDataType x, aclDataType smooth, aclDataType group, aclDataType y, aclDataType scale,
                      aclDataType offset, const Shape& x_shape, const Shape& smooth_shape, const Shape& group_shape,
                      const Shape& y_shape, const Shape& offset_shape) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          const Shape rows(x_shape.begin(), x_shape.end() - 1);
          return aclnnDynamicQuantV2GetWorkspaceSize(
              a.NewTensor(x, x_shape), smooth_shape.empty() ? nullptr : a.NewTensor(smooth, smooth_shape),
              group_shape.empty() ? nullptr : a.NewTensor(group, group_shape), 2, a.NewTensor(y, y_shape),
              a.NewTensor(scale, rows), offset_shape.empty() ? nullptr : a.NewTensor(offset, offset_shape), w, e);
        },
        aclnnDynamicQuantV2);
  };
  constexpr aclDataType f16 = ACL_FLOAT16, f32 = ACL_FLOAT, i32 = ACL_INT32, i8 = ACL_INT8;
  const Shape x = {4, 16}, s = {2, 16}, g = {2}, r = {4};
  EXPECT_EQ(run(f16, f16, i32, i8, f32, f32, x, s, g, x, r).phase1, ACLNN_SUCCESS);  // the counts are not set
  EXPECT_TRUE(run(f16, f16, i32, i8, f32, f32, x, {16}, {}, x, {}).ok());
  // groupIndexOptional without smoothScalesOptional is not read (CANN checks neither).
  EXPECT_TRUE(run(f16, f16, ACL_FLOAT, i8, f32, f32, x, {}, {2, 2}, x, r).ok());
  ExpectRejectedWith(run(ACL_FLOAT, f16, i32, i8, f32, f32, x, s, g, x, r), kInvalid, {"'x'"});
  ExpectRejectedWith(run(f16, ACL_BF16, i32, i8, f32, f32, x, s, g, x, r), kInvalid,
                     {"'smoothScalesOptional'", "match"});
  ExpectRejectedWith(run(f16, f16, ACL_FLOAT16, i8, f32, f32, x, s, g, x, r), kInvalid, {"'groupIndexOptional'"});
  ExpectRejectedWith(run(f16, f16, i32, ACL_FLOAT8_E4M3FN, f32, f32, x, s, g, x, r), kInvalid, {"'yOut'"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f16, f32, x, s, g, x, r), kInvalid, {"'scaleOut'"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f16, x, s, g, x, r), kInvalid, {"'offsetOut'"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, {16}, s, g, {16}, r), kInvalid, {"'x'", "rank"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, x, s, {2, 1}, x, r), kInvalid, {"'groupIndexOptional'"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, x, {8}, {}, x, r), kInvalid, {"'smoothScalesOptional'"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, x, s, g, {4, 8}, r), kInvalid, {"'yOut'"});
  ExpectRejectedWith(run(f16, f16, i32, ACL_INT4, f32, f32, {4, 15}, {2, 15}, g, {4, 15}, r), kInvalid, {"even"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, x, s, g, x, {4, 1}), kInvalid, {"'offsetOut'"});
  // The grouped smooth scales' shapes: CANN's tiling (561002).
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, x, {3, 16}, g, x, r), ACLNN_ERR_INNER_TILING_ERROR,
                     {"'smoothScalesOptional'"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, x, {16}, g, x, r), ACLNN_ERR_INNER_TILING_ERROR,
                     {"'smoothScalesOptional'"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, x, {2, 8}, g, x, r), ACLNN_ERR_INNER_TILING_ERROR,
                     {"'smoothScalesOptional'"});
  ExpectRejectedWith(run(f16, f16, i32, i8, f32, f32, x, {1025, 16}, {1025}, x, r), ACLNN_ERR_INNER_TILING_ERROR,
                     {"'groupIndexOptional'", "1024"});
}

}  // namespace
}  // namespace canopy_test
