// aclnnDequantSituQuant against a float64 reference: INT8 x dequantised by weightScale (one value or
// per column) plus a bias (likewise), INT32 x by weightScale * activationScale plus a bias (MoE
// groups by row counts, rows past their sum not written), f16 / bf16 x as they are; the Situ unit
// of the gate and up halves (both orders, linearBeta on and off); quantised statically (quantScale
// one value or per column, quantOffset) or dynamically (times a smooth quantScale, yScaleOut =
// max|row| / 127); views, ranks 2 and 3, wide rows, CANN's doc example and the rejections with
// their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "aclnnop/aclnn_dequant_situ_quant.h"
#include "llm_test_support.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

enum class Count { kNone, kOne, kAll };  // an optional tensor: absent, one value, a value per column

struct Case {
  std::string name;
  aclDataType dtype;
  Shape x;
  bool dynamic = true;
  Count weight = Count::kAll, bias = Count::kNone, scale = Count::kNone, offset = Count::kNone;
  int64_t groups = 0;  // INT32: groupIndexOptional's length (0: none)
  bool activateLeft = true;
  double beta = 4.0, linearBeta = 25.0;
  View xView = View::kContiguous, weightView = View::kContiguous, yView = View::kContiguous;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The stored inputs (absent ones empty).
struct Inputs {
  std::vector<double> x, weight, activation, bias, scale, offset;
  std::vector<int64_t> counts;
  bool intX = false, int8X = false, dynamic = true, activateLeft = true;
  double beta = 4.0, linearBeta = 25.0;
};

// The rows written, their quantised values before rounding and their yScaleOut.
struct Reference {
  std::vector<int64_t> rows;
  std::vector<double> q, scale;
};

double At(const std::vector<double>& v, int64_t i) { return v.size() == 1 ? v[0] : v[static_cast<size_t>(i)]; }

Reference Compute(const Inputs& in, int64_t rows, int64_t n) {
  std::vector<int64_t> group(static_cast<size_t>(rows), in.counts.empty() ? 0 : -1);
  int64_t next = 0;
  for (size_t g = 0; g < in.counts.size(); ++g) {
    for (int64_t k = 0; k < in.counts[g] && next < rows; ++k)
      group[static_cast<size_t>(next++)] = static_cast<int64_t>(g);
  }
  Reference ref;
  const int64_t width = 2 * n;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t g = group[static_cast<size_t>(r)];
    if (g < 0) continue;
    ref.rows.push_back(r);
    std::vector<double> v(static_cast<size_t>(width));
    for (int64_t c = 0; c < width; ++c) {
      double value = in.x[static_cast<size_t>(r * width + c)];
      if (in.intX || in.int8X) {
        value *= At(in.weight, g * width + c);
        if (in.intX) value *= in.activation[static_cast<size_t>(r)];
        if (!in.bias.empty()) value += At(in.bias, g * width + c);
      }
      v[static_cast<size_t>(c)] = value;
    }
    std::vector<double> s(static_cast<size_t>(n));
    double max = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double gate = v[static_cast<size_t>(in.activateLeft ? j : n + j)];
      double up = v[static_cast<size_t>(in.activateLeft ? n + j : j)];
      if (in.linearBeta > 0) up = in.linearBeta * std::tanh(up / in.linearBeta);
      double t = in.beta * std::tanh(gate / in.beta) / (1 + std::exp(-gate)) * up;
      if (in.dynamic && !in.scale.empty()) t *= At(in.scale, j);
      if (!in.dynamic) {
        const double qs = At(in.scale, j);
        t = in.scale.size() == 1 ? t * (qs == 0 ? 1.0 : 1 / qs) : t / qs;
        if (!in.offset.empty()) t += in.scale.size() == 1 ? in.offset[0] : At(in.offset, j);
      }
      s[static_cast<size_t>(j)] = t;
      max = std::max(max, std::abs(t));
    }
    if (in.dynamic) {
      ref.scale.push_back(max / 127);
      for (double& t : s) t = max == 0 ? t : t * 127 / max;
    }
    ref.q.insert(ref.q.end(), s.begin(), s.end());
  }
  return ref;
}

// yOut's written rows and yScaleOut's (dynamic) or its poison (static: not written); the rows
// not written keep their poison.
void ExpectMatches(const DeviceTensor& y, const DeviceTensor& scale, const Reference& ref, int64_t rows, int64_t n,
                   bool dynamic, const std::string& what) {
  const std::vector<int> all = QuantisedValues(y, ACL_INT8, y.numel());
  const Values scales = scale.ReadView();
  const int poison = static_cast<int8_t>(PoisonElement(ACL_INT8)[0]);
  Values got, gotScale, wantScale;
  std::vector<bool> written(static_cast<size_t>(rows), false);
  for (size_t k = 0; k < ref.rows.size(); ++k) {
    const int64_t r = ref.rows[k];
    written[static_cast<size_t>(r)] = true;
    for (int64_t j = 0; j < n; ++j) got.emplace_back(all[static_cast<size_t>(r * n + j)]);
    if (dynamic) {
      gotScale.push_back(scales[static_cast<size_t>(r)]);
      wantScale.emplace_back(ref.scale[k]);
    }
  }
  ExpectNear(got, RintQuant(ref.q, -128, 127), what + " yOut");
  if (dynamic) ExpectNear(gotScale, RelativeTolerance(wantScale, ACL_FLOAT, 64), what + " yScaleOut");
  for (int64_t r = 0; r < rows; ++r) {
    if (written[static_cast<size_t>(r)]) continue;
    for (int64_t j = 0; j < n; ++j) {
      EXPECT_EQ(all[static_cast<size_t>(r * n + j)], poison) << what << ": row " << r << " was written";
    }
  }
  for (size_t r = 0; r < scales.size(); ++r) {
    if (!dynamic || !written[r]) {
      EXPECT_TRUE(std::isnan(scales[r].real())) << what << ": yScaleOut " << r << " written";
    }
  }
}

std::vector<double> Fill(std::optional<DeviceTensor>& t, Count count, int64_t full, Rng& rng, const Range& range,
                         View view = View::kContiguous) {
  if (count == Count::kNone) return {};
  t.emplace(ACL_FLOAT, Shape{count == Count::kOne ? 1 : full}, count == Count::kOne ? View::kContiguous : view);
  return Reals(t->FillRandom(rng, range));
}

class DequantSituQuantTest : public ::testing::TestWithParam<Case> {};

TEST_P(DequantSituQuantTest, MatchesFloat64Reference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t width = c.x.back(), n = width / 2, rows = NumElements(c.x) / width;
  const bool int8X = c.dtype == ACL_INT8, intX = c.dtype == ACL_INT32, grouped = c.groups > 0;
  Shape yShape(c.x.begin(), c.x.end() - 1);
  const Shape scaleShape = yShape;
  yShape.push_back(n);
  DeviceTensor x(c.dtype, c.x, c.xView), y(ACL_INT8, yShape, c.yView), yScale(ACL_FLOAT, scaleShape);
  std::optional<DeviceTensor> weight, activation, bias, quantScale, quantOffset, group;
  Inputs in;
  in.intX = intX;
  in.int8X = int8X;
  in.dynamic = c.dynamic;
  in.activateLeft = c.activateLeft;
  in.beta = static_cast<float>(c.beta);
  in.linearBeta = static_cast<float>(c.linearBeta);
  in.x = Reals(x.FillRandom(rng, int8X ? Range{-128, 127} : intX ? Range{-300, 300} : Range{-6, 6}));
  if (intX) {
    const Shape rowsShape = grouped ? Shape{c.groups, width} : Shape{width};
    weight.emplace(ACL_FLOAT, rowsShape, c.weightView);
    in.weight = Reals(weight->FillRandom(rng, Range{0.002, 0.02}));
    activation.emplace(ACL_FLOAT, Shape{rows});
    in.activation = Reals(activation->FillRandom(rng, Range{0.5, 1.5}));
    if (c.bias != Count::kNone) {
      bias.emplace(ACL_FLOAT, rowsShape);
      in.bias = Reals(bias->FillRandom(rng, Range{-1, 1}));
    }
  } else if (int8X) {
    in.weight = Fill(weight, c.weight, width, rng, Range{0.01, 0.05}, c.weightView);
    in.bias = Fill(bias, c.bias, width, rng, Range{-1, 1});
  }
  in.scale = Fill(quantScale, c.scale, n, rng, c.dynamic ? Range{0.5, 2} : Range{0.05, 0.5, 0.05});
  in.offset = Fill(quantOffset, c.offset, n, rng, Range{-3, 3});
  if (grouped) {
    // An empty group, a negative one, and counts that end before the last row or run past it.
    for (int64_t g = 0; g < c.groups; ++g) in.counts.push_back(g == 1 ? -2 : g == 2 ? 0 : g == 3 ? rows : rows / 2 - 1);
    group.emplace(ACL_INT64, Shape{c.groups});
    Values values;
    for (const int64_t count : in.counts) values.emplace_back(static_cast<double>(count));
    group->WriteView(values);
    for (int64_t& count : in.counts) count = std::max<int64_t>(count, 0);
  }
  y.Poison();
  yScale.Poison();
  std::string type = c.dynamic ? "dynamic" : "static";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantSituQuantGetWorkspaceSize(a.Tensor(x), Or(a, weight), Or(a, activation), Or(a, bias),
                                                     Or(a, quantScale), Or(a, quantOffset), Or(a, group),
                                                     static_cast<float>(c.beta), static_cast<float>(c.linearBeta),
                                                     c.activateLeft, type.data(), a.Tensor(y), a.Tensor(yScale), w, e);
      },
      aclnnDequantSituQuant);
  ExpectMatches(y, yScale, Compute(in, rows, n), rows, n, c.dynamic, c.name);
}

std::vector<Case> Cases() {
  const View st = View::kStepped, tr = View::kTransposed, ct = View::kContiguous;
  const Count none = Count::kNone, one = Count::kOne, all = Count::kAll;
  std::vector<Case> cases = {
      // INT8 x, dynamic: without and with a smooth scale, per column or one.
      {"int8_dynamic", ACL_INT8, {6, 64}},
      {"int8_dynamic_bias_smooth", ACL_INT8, {4, 3, 48}, true, all, all, all, none, 0, false},
      {"int8_dynamic_one_weight_smooth_one", ACL_INT8, {5, 32}, true, one, one, one, none, 0, true, 2.0, -1.0, st},
      {"int8_dynamic_views", ACL_INT8, {6, 40}, true, all, none, all, none, 0, false, 0.5, 3.0, tr, st, st},
      {"int8_dynamic_offset_ignored", ACL_INT8, {3, 32}, true, all, all, none, all},
      // INT8 x, static: scales per column or one, with and without offsets.
      {"int8_static_channel", ACL_INT8, {5, 64}, false, all, all, all, all},
      {"int8_static_channel_no_offset", ACL_INT8, {2, 2, 32}, false, one, none, all, none, 0, false, 1.0, 0.0, st},
      {"int8_static_one", ACL_INT8, {7, 48}, false, all, one, one, one, 0, false, 4.0, 25.0, ct, ct, st},
      {"int8_static_one_offset_per_column", ACL_INT8, {4, 32}, false, all, none, one, all},
      {"int8_static_one_no_offset", ACL_INT8, {3, 16}, false, all, none, one, none, 0, true, -2.0},
      // Rows wider than one unified-buffer tile (the kernel's two passes).
      {"int8_dynamic_wide", ACL_INT8, {2, 9000}, true, all, all, all},
      {"int8_static_wide", ACL_INT8, {2, 9000}, false, all, none, all, all},
      // INT32 x: with and without a bias, groups.
      {"int32", ACL_INT32, {5, 64}},
      {"int32_bias_right", ACL_INT32, {4, 48}, true, all, all, none, none, 0, false, 3.0, 0.0, st, st, st},
      {"int32_groups", ACL_INT32, {12, 64}, true, all, all, none, none, 4},
      {"int32_one_group", ACL_INT32, {6, 32}, true, all, none, none, none, 1, false, 4.0, 25.0, tr, st},
      // f16 / bf16 x.
      {"f16", ACL_FLOAT16, {6, 64}},
      {"f16_right_views", ACL_FLOAT16, {4, 32}, true, all, none, none, none, 0, false, 1.5, 2.0, tr, ct, st},
      {"bf16", ACL_BF16, {5, 96}},
      {"bf16_no_linear", ACL_BF16, {3, 16}, true, all, none, none, none, 0, true, 0.7, -3.0, st},
  };
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, DequantSituQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// CANN's doc example: INT8 x [16, 64] with x[i] = (7i + 3) % 100, weightScale 0.1 everywhere,
// dynamic, beta 4, linearBeta 25, activateLeft.
TEST(DequantSituQuant, DocExample) {
  DeviceTensor x(ACL_INT8, {16, 64}), ws(ACL_FLOAT, {64}), y(ACL_INT8, {16, 32}), scale(ACL_FLOAT, {16});
  Inputs in;
  Values xv;
  for (int i = 0; i < 16 * 64; ++i) {
    in.x.push_back((i * 7 + 3) % 100);
    xv.emplace_back(in.x.back());
  }
  x.WriteView(xv);
  ws.WriteView(Values(64, 0.1));
  y.Poison();
  scale.Poison();
  char type[] = "dynamic";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantSituQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(ws), nullptr, nullptr, nullptr, nullptr,
                                                     nullptr, 4.0F, 25.0F, true, type, a.Tensor(y), a.Tensor(scale), w,
                                                     e);
      },
      aclnnDequantSituQuant);
  in.int8X = true;
  in.weight = {static_cast<float>(0.1)};
  ExpectMatches(y, scale, Compute(in, 16, 32), 16, 32, true, "doc example");
}

// A null quantTypeOptional is "dynamic"; the type's case is ignored.
TEST(DequantSituQuant, TypeDefaultAndCase) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(ACL_INT8, {3, 16}), ws(ACL_FLOAT, {1}), qs(ACL_FLOAT, {8}), y(ACL_INT8, {3, 8}), scale(ACL_FLOAT, {3});
  Inputs in;
  in.int8X = true;
  in.x = Reals(x.FillRandom(rng, Range{-100, 100}));
  in.weight = Reals(ws.FillRandom(rng, Range{0.02, 0.04}));
  const std::vector<double> qsValues = Reals(qs.FillRandom(rng, Range{0.1, 0.5}));
  for (const char* type : {static_cast<const char*>(nullptr), "STATIC", "Dynamic"}) {
    y.Poison();
    scale.Poison();
    std::string text = type == nullptr ? "" : type;
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDequantSituQuantGetWorkspaceSize(
              a.Tensor(x), a.Tensor(ws), nullptr, nullptr, a.Tensor(qs), nullptr, nullptr, 4.0F, 25.0F, true,
              type == nullptr ? nullptr : text.data(), a.Tensor(y), a.Tensor(scale), w, e);
        },
        aclnnDequantSituQuant);
    in.dynamic = text != "STATIC";
    in.scale = qsValues;
    ExpectMatches(y, scale, Compute(in, 3, 8), 3, 8, in.dynamic, text.empty() ? "null type" : text);
  }
}

// A row of zeros has the scale 0; CANN's kernels write it as 1 except the INT8 one-tile kernel.
TEST(DequantSituQuant, ZeroRowScale) {
  for (const auto& [xDtype, width, want] :
       {std::tuple{ACL_INT8, int64_t{64}, 0.0}, std::tuple{ACL_INT8, int64_t{9000}, 1.0},
        std::tuple{ACL_BF16, int64_t{64}, 1.0}}) {
    const aclDataType dtype = xDtype;
    SCOPED_TRACE(std::string(Name(dtype)) + " " + std::to_string(width));
    DeviceTensor x(dtype, {2, width}), ws(ACL_FLOAT, {1}), y(ACL_INT8, {2, width / 2}), scale(ACL_FLOAT, {2});
    x.WriteView(Values(static_cast<size_t>(2 * width), 0.0));
    ws.WriteView({1.0});
    scale.Poison();
    char type[] = "dynamic";
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDequantSituQuantGetWorkspaceSize(a.Tensor(x), dtype == ACL_INT8 ? a.Tensor(ws) : nullptr, nullptr,
                                                       nullptr, nullptr, nullptr, nullptr, 4.0F, 25.0F, true, type,
                                                       a.Tensor(y), a.Tensor(scale), w, e);
        },
        aclnnDequantSituQuant);
    ExpectExact(scale.ReadView(), Values{want, want}, "yScaleOut");
    for (const int q : QuantisedValues(y, ACL_INT8, y.numel())) EXPECT_EQ(q, 0);
  }
}

// A NaN in a row makes its dynamic scale NaN and its values 0 (std::max dropped it).
TEST(DequantSituQuant, NanRowGetsANanScaleAndZeros) {
  const int64_t width = 64;
  DeviceTensor x(ACL_BF16, {2, width}), y(ACL_INT8, {2, width / 2}), scale(ACL_FLOAT, {2});
  Values values(static_cast<size_t>(2 * width), Value(1.0));
  values[0] = std::numeric_limits<double>::quiet_NaN();
  x.WriteView(values);
  char type[] = "dynamic";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantSituQuantGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                     4.0F, 25.0F, true, type, a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnDequantSituQuant);
  const Values s = scale.ReadView();
  EXPECT_TRUE(std::isnan(s[0].real())) << s[0].real();
  EXPECT_FALSE(std::isnan(s[1].real()));
  const std::vector<int> q = QuantisedValues(y, ACL_INT8, y.numel());
  for (int64_t j = 0; j < width / 2; ++j) EXPECT_EQ(q[static_cast<size_t>(j)], 0) << j;
  for (int64_t j = width / 2; j < width; ++j) EXPECT_NE(q[static_cast<size_t>(j)], 0) << j;
}

TEST(DequantSituQuant, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x = ACL_INT8, weight = ACL_FLOAT, activation = ACL_FLOAT, bias = ACL_FLOAT, scale = ACL_FLOAT,
                offset = ACL_FLOAT, group = ACL_INT64, y = ACL_INT8, yScale = ACL_FLOAT;
    Shape xShape = {4, 64}, weightShape = {64}, activationShape = {4}, biasShape = {64}, scaleShape = {32},
          offsetShape = {32}, groupShape = {2}, yShape = {4, 32}, yScaleShape = {4};
    bool withWeight = true, withActivation = false, withBias = false, withScale = false, withOffset = false,
         withGroup = false;
    const char* type = "dynamic";
    float beta = 4.0F;
    aclnnStatus status = ACLNN_ERR_PARAM_INVALID;
    const char* keyword = "";
  };
  const aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Bad cases[] = {
      {.name = "x dtype", .x = ACL_FLOAT, .keyword = "'x'"},
      {.name = "weight dtype", .weight = ACL_FLOAT16, .keyword = "weightScaleOptional"},
      {.name = "activation dtype", .activation = ACL_BF16, .withActivation = true, .keyword = "activationScale"},
      {.name = "bias dtype", .bias = ACL_FLOAT16, .withBias = true, .keyword = "biasOptional"},
      {.name = "scale dtype", .scale = ACL_FLOAT16, .withScale = true, .keyword = "quantScaleOptional"},
      {.name = "offset dtype", .offset = ACL_BF16, .withOffset = true, .keyword = "quantOffsetOptional"},
      {.name = "group dtype", .group = ACL_INT32, .withGroup = true, .keyword = "groupIndexOptional"},
      {.name = "y dtype", .y = ACL_INT4, .keyword = "yOut"},
      {.name = "yScale dtype", .yScale = ACL_FLOAT16, .keyword = "yScaleOut"},
      {.name = "empty x", .xShape = {0, 64}, .keyword = "'x'"},
      {.name = "empty yScale", .yScaleShape = {0}, .keyword = "yScaleOut"},
      {.name = "beta 0", .beta = 0.0F, .keyword = "beta"},
      {.name = "quant type", .type = "dynamic_msd", .keyword = "quantTypeOptional"},
      {.name = "odd last dim", .xShape = {4, 63}, .keyword = "even"},
      {.name = "int8 x rank 1", .xShape = {64}, .yShape = {32}, .yScaleShape = {1}, .keyword = "'x'"},
      {.name = "int8 without weight", .withWeight = false, .status = kNull, .keyword = "weightScaleOptional"},
      {.name = "int8 weight count", .weightShape = {32}, .keyword = "weightScaleOptional"},
      {.name = "int8 activation", .withActivation = true, .keyword = "activationScaleOptional"},
      {.name = "int8 bias count", .biasShape = {2}, .withBias = true, .keyword = "biasOptional"},
      {.name = "int8 scale count", .scaleShape = {64}, .withScale = true, .keyword = "quantScaleOptional"},
      {.name = "int8 static without scale", .type = "static", .status = kNull, .keyword = "quantScaleOptional"},
      {.name = "int8 offset count",
       .offsetShape = {31},
       .withScale = true,
       .withOffset = true,
       .type = "static",
       .keyword = "quantOffsetOptional"},
      {.name = "int8 one offset for channel scales",
       .offsetShape = {1},
       .withScale = true,
       .withOffset = true,
       .type = "static",
       .status = kTiling,
       .keyword = "quantOffsetOptional"},
      {.name = "int8 group", .withGroup = true, .keyword = "groupIndexOptional"},
      {.name = "int8 y rank", .yShape = {4, 1, 32}, .keyword = "yOut"},
      {.name = "int8 y last dim", .yShape = {4, 64}, .keyword = "yOut"},
      {.name = "int8 y count", .yShape = {2, 32}, .keyword = "yOut"},
      {.name = "int8 yScale count", .yScaleShape = {5}, .keyword = "yScaleOut"},
      {.name = "int32 rank 3",
       .x = ACL_INT32,
       .xShape = {2, 2, 64},
       .yShape = {2, 2, 32},
       .yScaleShape = {2, 2},
       .withActivation = true,
       .keyword = "2-D"},
      {.name = "int32 quant scale", .x = ACL_INT32, .withActivation = true, .withScale = true, .keyword = "quantScale"},
      {.name = "int32 quant offset",
       .x = ACL_INT32,
       .withActivation = true,
       .withOffset = true,
       .keyword = "quantOffset"},
      {.name = "int32 static",
       .x = ACL_INT32,
       .withActivation = true,
       .type = "static",
       .keyword = "quantTypeOptional"},
      {.name = "int32 without weight",
       .x = ACL_INT32,
       .withWeight = false,
       .withActivation = true,
       .status = kNull,
       .keyword = "weightScaleOptional"},
      {.name = "int32 without activation", .x = ACL_INT32, .status = kNull, .keyword = "activationScaleOptional"},
      {.name = "int32 group rank",
       .x = ACL_INT32,
       .groupShape = {2, 1},
       .withActivation = true,
       .withGroup = true,
       .keyword = "groupIndexOptional"},
      {.name = "int32 grouped weight",
       .x = ACL_INT32,
       .withActivation = true,
       .withGroup = true,
       .keyword = "weightScaleOptional"},
      {.name = "int32 weight",
       .x = ACL_INT32,
       .weightShape = {2, 64},
       .withActivation = true,
       .keyword = "weightScaleOptional"},
      {.name = "int32 activation",
       .x = ACL_INT32,
       .activationShape = {4, 2},
       .withActivation = true,
       .keyword = "activationScaleOptional"},
      {.name = "int32 bias",
       .x = ACL_INT32,
       .biasShape = {1, 32},
       .withActivation = true,
       .withBias = true,
       .keyword = "biasOptional"},
      {.name = "int32 y", .x = ACL_INT32, .yShape = {4, 1, 32}, .withActivation = true, .keyword = "yOut"},
      {.name = "int32 yScale", .x = ACL_INT32, .yScaleShape = {4, 1}, .withActivation = true, .keyword = "yScaleOut"},
      {.name = "int32 width limit",
       .x = ACL_INT32,
       .xShape = {4, 12000},
       .weightShape = {12000},
       .yShape = {4, 6000},
       .withActivation = true,
       .status = kTiling,
       .keyword = "unified buffer"},
      {.name = "bf16 static", .x = ACL_BF16, .withWeight = false, .type = "static", .keyword = "quantTypeOptional"},
      {.name = "bf16 weight", .x = ACL_BF16, .keyword = "weightScaleOptional"},
      {.name = "f16 group", .x = ACL_FLOAT16, .withWeight = false, .withGroup = true, .keyword = "groupIndexOptional"},
      {.name = "bf16 width limit",
       .x = ACL_BF16,
       .xShape = {4, 16000},
       .yShape = {4, 8000},
       .withWeight = false,
       .status = kTiling,
       .keyword = "unified buffer"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.name);
    DeviceTensor x(bad.x, bad.xShape), weight(bad.weight, bad.weightShape),
        activation(bad.activation, bad.activationShape), bias(bad.bias, bad.biasShape),
        scale(bad.scale, bad.scaleShape), offset(bad.offset, bad.offsetShape), group(bad.group, bad.groupShape),
        y(bad.y, bad.yShape), yScale(bad.yScale, bad.yScaleShape);
    std::string type = bad.type;
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDequantSituQuantGetWorkspaceSize(
              a.Tensor(x), bad.withWeight ? a.Tensor(weight) : nullptr,
              bad.withActivation ? a.Tensor(activation) : nullptr, bad.withBias ? a.Tensor(bias) : nullptr,
              bad.withScale ? a.Tensor(scale) : nullptr, bad.withOffset ? a.Tensor(offset) : nullptr,
              bad.withGroup ? a.Tensor(group) : nullptr, bad.beta, 25.0F, true, type.data(), a.Tensor(y),
              a.Tensor(yScale), w, e);
        },
        aclnnDequantSituQuant);
    ExpectRejectedWith(run, bad.status, {bad.keyword});
  }
}

}  // namespace
}  // namespace canopy_test
