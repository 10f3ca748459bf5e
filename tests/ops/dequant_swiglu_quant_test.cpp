// aclnnDequantSwigluQuant and aclnnDequantSwigluQuantV2 against a float64 reference: an INT32 x
// dequantised ((x + INT32 bias) * weightScale * activationScale, or x * weightScale *
// activationScale + float bias), swish of the activated half times the other (V2: the clamped
// GPT-OSS forms, swigluMode 1 to 3), quantised statically (quantScale one value or per column,
// plus quantOffset; none) or dynamically (times quantScale, scaleOut = max|row| / 127); groups by
// row counts (rows past their sum not written); every x and bias dtype, both halves, views, rank 3,
// empties, CANN's doc examples and rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_dequant_swiglu_quant.h"
#include "aclnnop/aclnn_dequant_swiglu_quant_v2.h"
#include "llm_test_support.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

enum class Quant { kNone, kOne, kChannel };

struct Case {
  std::string name;
  aclDataType dtype;
  Shape x;
  bool dynamic;
  Quant quant = Quant::kChannel;
  int64_t groups = 0;  // 0: no groupIndexOptional
  aclDataType bias = ACL_DT_UNDEFINED;
  bool activation = true;
  bool activateLeft = false;
  bool v2 = false;
  int64_t swigluMode = 0;
  View xView = View::kContiguous, weightView = View::kContiguous, yView = View::kContiguous;
  bool zeroScale = false;  // a group's static quant scale is 0 (taken as 1)
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The V2 attributes the cases and examples use (swigluMode's clamp limit, alpha and bias).
struct Glu {
  int64_t mode = 0;
  double limit = 7.0, alpha = 1.702, bias = 1.0;
};

// What the op computes, in float64, of the stored inputs (absent ones empty): the rows each group
// covers (all without counts), their quantised values before rounding, and scaleOut per row.
struct Reference {
  std::vector<int64_t> rows;
  std::vector<double> q, scale;
};

struct Inputs {
  std::vector<double> x, weight, activation, bias, scale, offset;
  std::vector<int64_t> counts;
  bool intBias = false, intX = false, dynamic = false, activateLeft = false;
  Quant quant = Quant::kNone;
  Glu glu;
};

double Swish(double a, double alpha) { return a / (1 + std::exp(-alpha * a)); }

Reference Compute(const Inputs& in, int64_t rows, int64_t n) {
  std::vector<int64_t> group(static_cast<size_t>(rows), in.counts.empty() ? 0 : -1);
  int64_t offset = 0;
  for (size_t g = 0; g < in.counts.size(); ++g) {
    for (int64_t k = 0; k < std::max<int64_t>(in.counts[g], 0) && offset < rows; ++k) {
      group[static_cast<size_t>(offset++)] = static_cast<int64_t>(g);
    }
  }
  const auto at = [](const std::vector<double>& v, int64_t i) { return v[static_cast<size_t>(i)]; };
  Reference ref;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t g = group[static_cast<size_t>(r)];
    if (g < 0) continue;
    ref.rows.push_back(r);
    std::vector<double> v(static_cast<size_t>(2 * n));
    for (int64_t j = 0; j < 2 * n; ++j) {
      double value = at(in.x, r * 2 * n + j);
      if (in.intX) {
        const double bias = in.bias.empty() ? 0.0 : at(in.bias, g * 2 * n + j);
        value = (value + (in.intBias ? bias : 0.0)) * at(in.weight, g * 2 * n + j);
        if (!in.activation.empty()) value *= at(in.activation, r);
        if (!in.intBias) value += bias;
      }
      v[static_cast<size_t>(j)] = value;
    }
    std::vector<double> s(static_cast<size_t>(n));
    if (in.glu.mode == 0) {
      s = SwiGluRows(v, 2 * n, in.activateLeft);
    } else {
      const double limit = in.glu.limit;
      for (int64_t j = 0; j < n; ++j) {
        const bool interleaved = in.glu.mode == 1;
        const int64_t ai = interleaved ? 2 * j : (in.activateLeft ? j : n + j);
        const int64_t bi = interleaved ? 2 * j + 1 : (in.activateLeft ? n + j : j);
        const double a = at(v, ai), b = std::clamp(at(v, bi), -limit, limit);
        s[static_cast<size_t>(j)] = in.glu.mode == 3 ? std::min(Swish(a, 1), limit) * b
                                                     : Swish(std::min(a, limit), in.glu.alpha) * (b + in.glu.bias);
      }
    }
    const auto scale = [&](int64_t j) {
      return in.quant == Quant::kOne ? at(in.scale, in.counts.empty() ? 0 : g) : at(in.scale, g * n + j);
    };
    const auto offset_of = [&](int64_t j) {
      return in.quant == Quant::kOne ? at(in.offset, in.counts.empty() ? 0 : g) : at(in.offset, g * n + j);
    };
    if (in.dynamic) {
      double max = 0;
      for (int64_t j = 0; j < n; ++j) {
        double& t = s[static_cast<size_t>(j)];
        if (in.quant != Quant::kNone) t *= scale(j);
        max = std::max(max, std::abs(t));
      }
      ref.scale.push_back(max / 127);
      for (double& t : s) ref.q.push_back(t * 127 / max);
    } else {
      for (int64_t j = 0; j < n; ++j) {
        double t = s[static_cast<size_t>(j)];
        if (in.quant != Quant::kNone) t = t / (scale(j) == 0 ? 1.0 : scale(j)) + offset_of(j);
        ref.q.push_back(t);
      }
    }
  }
  return ref;
}

// yOut's rows the reference covers, and scaleOut's (dynamic) or its poison (static: not written).
void ExpectMatches(const DeviceTensor& y, const DeviceTensor& scale, const Reference& ref, int64_t n, bool dynamic,
                   const std::string& what) {
  const std::vector<int> all = QuantisedValues(y, ACL_INT8, y.numel());
  const Values scales = scale.ReadView();
  Values got, gotScale, wantScale;
  for (size_t k = 0; k < ref.rows.size(); ++k) {
    const int64_t r = ref.rows[k];
    for (int64_t j = 0; j < n; ++j) got.emplace_back(all[static_cast<size_t>(r * n + j)]);
    if (dynamic) {
      gotScale.push_back(scales[static_cast<size_t>(r)]);
      wantScale.emplace_back(ref.scale[k]);
    }
  }
  ExpectNear(got, RintQuant(ref.q, -128, 127), what + " yOut");
  if (dynamic) {
    ExpectNear(gotScale, RelativeTolerance(wantScale, ACL_FLOAT, 64), what + " scaleOut");
  } else {
    for (const Value& v : scales) EXPECT_TRUE(std::isnan(v.real())) << what << ": the static mode wrote scaleOut";
  }
}

// Row counts for `rows` in `groups` groups: a negative (empty) group and one row past their sum.
std::vector<int64_t> Counts(int64_t rows, int64_t groups) {
  std::vector<int64_t> counts;
  int64_t left = std::max<int64_t>(rows - 1, 0);
  for (int64_t g = 0; g < groups; ++g) {
    const int64_t count = g == groups - 1 ? left : g == 1 ? -2 : std::min(left, rows / groups);
    counts.push_back(count);
    left -= std::max<int64_t>(count, 0);
  }
  return counts;
}

class DequantSwigluQuantTest : public ::testing::TestWithParam<Case> {};

TEST_P(DequantSwigluQuantTest, MatchesFloat64Reference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t width = c.x.back(), n = width / 2;
  const int64_t rows = NumElements(c.x) / width;
  const Shape before(c.x.begin(), c.x.end() - 1);
  Shape yShape = before;
  yShape.push_back(n);
  const bool intX = c.dtype == ACL_INT32, grouped = c.groups > 0;
  const int64_t g = std::max<int64_t>(c.groups, 1);
  DeviceTensor x(c.dtype, c.x, c.xView), y(ACL_INT8, yShape, c.yView), scale(ACL_FLOAT, before);
  std::optional<DeviceTensor> weight, activation, bias, quantScale, quantOffset, group;
  Inputs in;
  in.intX = intX;
  in.dynamic = c.dynamic;
  in.activateLeft = c.activateLeft;
  in.quant = c.quant;
  in.glu.mode = c.swigluMode;
  in.glu.limit = 1.5;  // below the values' reach, so that the clamps act
  in.x = Reals(x.FillRandom(rng, intX ? Range{-200, 200} : Range{-4, 4}));
  if (intX) {
    weight.emplace(ACL_FLOAT, grouped && g > 1 ? Shape{g, width} : Shape{width}, c.weightView);
    in.weight = Reals(weight->FillRandom(rng, Range{0.002, 0.02}));
    if (c.activation) {
      activation.emplace(ACL_FLOAT, before);
      in.activation = Reals(activation->FillRandom(rng, Range{0.5, 1.5}));
    }
    if (c.bias != ACL_DT_UNDEFINED) {
      bias.emplace(c.bias, grouped && g > 1 ? Shape{g, width} : Shape{width});
      in.intBias = c.bias == ACL_INT32;
      in.bias = Reals(bias->FillRandom(rng, in.intBias ? Range{-20, 20} : Range{-1, 1}));
    }
  }
  if (c.quant != Quant::kNone) {
    Shape qShape = c.quant == Quant::kOne ? Shape{grouped ? g : 1} : grouped && g > 1 ? Shape{g, n} : Shape{n};
    quantScale.emplace(ACL_FLOAT, qShape);
    in.scale = Reals(quantScale->FillRandom(rng, c.dynamic ? Range{0.5, 2} : Range{0.05, 0.5}));
    if (c.zeroScale) {
      in.scale[0] = 0;
      Values values;
      for (const double v : in.scale) values.emplace_back(v);
      quantScale->WriteView(values);
    }
    if (!c.dynamic) {
      quantOffset.emplace(ACL_FLOAT, qShape);
      in.offset = Reals(quantOffset->FillRandom(rng, Range{-3, 3}));
    }
  }
  if (grouped) {
    in.counts = Counts(rows, g);
    group.emplace(ACL_INT64, Shape{g});
    Values values;
    for (const int64_t count : in.counts) values.emplace_back(static_cast<double>(count));
    group->WriteView(values);
  }
  y.Poison();
  scale.Poison();
  std::string mode = c.dynamic ? "dynamic" : "static";
  char rint[] = "rint";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        if (c.v2) {
          return aclnnDequantSwigluQuantV2GetWorkspaceSize(
              a.Tensor(x), Or(a, weight), Or(a, activation), Or(a, bias), Or(a, quantScale), Or(a, quantOffset),
              Or(a, group), c.activateLeft, mode.data(), 2, rint, -1, c.swigluMode, in.glu.limit, in.glu.alpha,
              in.glu.bias, a.Tensor(y), a.Tensor(scale), w, e);
        }
        return aclnnDequantSwigluQuantGetWorkspaceSize(a.Tensor(x), Or(a, weight), Or(a, activation), Or(a, bias),
                                                       Or(a, quantScale), Or(a, quantOffset), Or(a, group),
                                                       c.activateLeft, mode.data(), a.Tensor(y), a.Tensor(scale), w, e);
      },
      c.v2 ? aclnnDequantSwigluQuantV2 : aclnnDequantSwigluQuant);
  if (rows == 0) return;
  ExpectMatches(y, scale, Compute(in, rows, n), n, c.dynamic, c.name);
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const View st = View::kStepped, tr = View::kTransposed, ct = View::kContiguous;
  const auto none = ACL_DT_UNDEFINED;
  // f16 / bf16 x: the swish and the quantisation only.
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({"static_channel_" + d, dtype, {5, 32}, false, Quant::kChannel, 0, none, false, false});
    cases.push_back(
        {"static_one_left_" + d, dtype, {2, 3, 48}, false, Quant::kOne, 0, none, false, true, false, 0, tr});
    cases.push_back(
        {"static_none_" + d, dtype, {4, 16}, false, Quant::kNone, 0, none, false, false, false, 0, st, ct, st});
    cases.push_back({"dynamic_channel_left_" + d, dtype, {6, 64}, true, Quant::kChannel, 0, none, false, true});
    cases.push_back({"dynamic_one_" + d, dtype, {3, 24}, true, Quant::kOne, 0, none, false, false, false, 0, st});
    cases.push_back({"dynamic_none_" + d, dtype, {7, 40}, true, Quant::kNone});
    cases.push_back({"long_rows_" + d, dtype, {3, 4096}, true, Quant::kChannel});
    cases.push_back({"empty_" + d, dtype, {0, 32}, true, Quant::kChannel});
  }
  // bf16 x with groups.
  cases.push_back(
      {"grouped_dynamic_bf16", ACL_BF16, {9, 64}, true, Quant::kChannel, 3, none, false, false, false, 0, st, ct, st});
  cases.push_back({"grouped_static_one_bf16", ACL_BF16, {8, 128}, false, Quant::kOne, 3, none, false, true});
  cases.push_back({"grouped_static_channel_bf16", ACL_BF16, {2, 3, 64}, false, Quant::kChannel, 2});
  // INT32 x: every bias dtype, with and without activationScale, both paths.
  for (const aclDataType b : {none, ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
    const std::string d = b == none ? std::string("nobias") : Name(b);
    cases.push_back({"int_static_channel_" + d,
                     ACL_INT32,
                     {5, 32},
                     false,
                     Quant::kChannel,
                     0,
                     b,
                     true,
                     false,
                     false,
                     0,
                     st,
                     st,
                     st});
    cases.push_back({"int_dynamic_one_" + d, ACL_INT32, {2, 2, 48}, true, Quant::kOne, 0, b, b != ACL_FLOAT16, true});
    cases.push_back(
        {"int_grouped_dynamic_" + d, ACL_INT32, {10, 64}, true, Quant::kChannel, 3, b, true, false, false, 0, tr, st});
    cases.push_back(
        {"int_grouped_static_one_" + d, ACL_INT32, {7, 128}, false, Quant::kOne, 2, b, b != ACL_BF16, true});
  }
  cases.push_back({"int_static_none", ACL_INT32, {3, 16}, false, Quant::kNone, 0, ACL_FLOAT, false});
  cases.push_back({"int_dynamic_none_grouped", ACL_INT32, {6, 64}, true, Quant::kNone, 1, ACL_INT32});
  cases.push_back({"int_grouped_static_channel", ACL_INT32, {6, 64}, false, Quant::kChannel, 2, ACL_FLOAT, true});
  Case zero{"int_grouped_static_zero_scale", ACL_INT32, {6, 64}, false, Quant::kOne, 3, ACL_FLOAT, true};
  zero.zeroScale = true;
  cases.push_back(zero);
  cases.push_back({"int_dynamic_long_rows", ACL_INT32, {2, 6144}, true, Quant::kChannel, 0, ACL_FLOAT});
  cases.push_back({"int_grouped_empty", ACL_INT32, {0, 64}, true, Quant::kChannel, 2, ACL_FLOAT});
  cases.push_back({"int_empty", ACL_INT32, {2, 0, 16}, false, Quant::kChannel, 0, ACL_INT32});
  // V2: 2-D x, groups required, the four swigluModes (1 takes the even and odd columns, left only).
  for (const aclDataType dtype : {ACL_INT32, ACL_BF16}) {
    const std::string d = Name(dtype);
    const aclDataType b = dtype == ACL_INT32 ? ACL_FLOAT : none;
    for (const int64_t m : {0, 1, 2, 3}) {
      const std::string name = "v2_mode" + std::to_string(m) + "_";
      cases.push_back({name + "dynamic_" + d,
                       dtype,
                       {9, 64},
                       true,
                       Quant::kChannel,
                       2,
                       b,
                       dtype == ACL_INT32,
                       m == 1 || m == 3,
                       true,
                       m});
      cases.push_back({name + "static_" + d,
                       dtype,
                       {5, 128},
                       false,
                       m == 2 ? Quant::kChannel : Quant::kOne,
                       3,
                       b,
                       false,
                       true,
                       true,
                       m,
                       st,
                       ct,
                       st});
    }
  }
  cases.push_back(
      {"v2_right_dynamic_none_int32", ACL_INT32, {4, 64}, true, Quant::kNone, 1, ACL_INT32, true, false, true, 2});
  cases.push_back({"v2_empty", ACL_BF16, {0, 64}, true, Quant::kChannel, 1, none, false, true, true});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, DequantSwigluQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// CANN's V1 doc example, bytes and all: x is 64 floats 0..63 handed over as FLOAT16 [2, 32] (so x
// holds the f16 halves of the first 32 floats), quantScale and quantOffset {1}, static,
// activateLeft false.
TEST(DequantSwigluQuant, DocExample) {
  std::vector<float> host(64);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  std::vector<uint8_t> xBytes(2 * 32 * 2);
  std::memcpy(xBytes.data(), host.data(), xBytes.size());
  DeviceTensor x(ACL_FLOAT16, {2, 32}), qs(ACL_FLOAT, {1}), qo(ACL_FLOAT, {1}), y(ACL_INT8, {2, 16}),
      scale(ACL_FLOAT, {2});
  x.UploadBytes(xBytes);
  qs.WriteView({1.0});
  qo.WriteView({1.0});
  y.Poison();
  scale.Poison();
  char mode[] = "static";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantSwigluQuantGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, nullptr, a.Tensor(qs),
                                                       a.Tensor(qo), nullptr, false, mode, a.Tensor(y), a.Tensor(scale),
                                                       w, e);
      },
      aclnnDequantSwigluQuant);
  Inputs in;
  in.x = Reals(x.ReadView());
  in.quant = Quant::kOne;
  in.scale = {1};
  in.offset = {1};
  ExpectMatches(y, scale, Compute(in, 2, 16), 16, false, "doc example");
}

// CANN's V2 doc example: INT32 x [2, 64] (each row 0..63), weightScale [1, 64], activationScale [2],
// an f32 bias [1, 64] and quantScale [1, 32] (the example hands over one value each: all ones here),
// groupIndex {1} (row 1 not written), dynamic, swigluMode 1 with clampLimit 7, gluAlpha 1 and
// gluBias 1.702.
TEST(DequantSwigluQuant, V2DocExample) {
  DeviceTensor x(ACL_INT32, {2, 64}), ws(ACL_FLOAT, {1, 64}), as(ACL_FLOAT, {2}), bias(ACL_FLOAT, {1, 64}),
      qs(ACL_FLOAT, {1, 32}), group(ACL_INT64, {1}), y(ACL_INT8, {2, 32}), scale(ACL_FLOAT, {2});
  Inputs in;
  for (int r = 0; r < 2; ++r) {
    for (int j = 0; j < 64; ++j) in.x.push_back(j);
  }
  Values xv;
  for (const double v : in.x) xv.emplace_back(v);
  x.WriteView(xv);
  ws.WriteView(Values(64, 1.0));
  as.WriteView(Values(2, 1.0));
  bias.WriteView(Values(64, 1.0));
  qs.WriteView(Values(32, 1.0));
  group.WriteView({1.0});
  y.Poison();
  scale.Poison();
  char mode[] = "dynamic", rint[] = "rint";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantSwigluQuantV2GetWorkspaceSize(a.Tensor(x), a.Tensor(ws), a.Tensor(as), a.Tensor(bias),
                                                         a.Tensor(qs), nullptr, a.Tensor(group), true, mode, 2, rint,
                                                         -1, 1, 7.0F, 1.0F, 1.702F, a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnDequantSwigluQuantV2);
  in.intX = true;
  in.weight = std::vector<double>(64, 1.0);
  in.activation = {1.0, 1.0};
  in.bias = std::vector<double>(64, 1.0);
  in.scale = std::vector<double>(32, 1.0);
  in.counts = {1};
  in.dynamic = true;
  in.activateLeft = true;
  in.quant = Quant::kChannel;
  in.glu = Glu{.mode = 1, .limit = 7.0, .alpha = 1.0, .bias = static_cast<double>(1.702F)};
  ExpectMatches(y, scale, Compute(in, 2, 32), 32, true, "V2 doc example");
}

// A group count running past x's rows fails the run (CANN's kernel would read past x).
TEST(DequantSwigluQuant, CountsPastRowsFailTheRun) {
  DeviceTensor x(ACL_BF16, {4, 64}), group(ACL_INT64, {2}), y(ACL_INT8, {4, 32}), scale(ACL_FLOAT, {4});
  Rng rng = Rng::ForCurrentTest();
  x.FillRandom(rng, Range{-2, 2});
  group.WriteView({3.0, 2.0});
  char mode[] = "dynamic";
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantSwigluQuantGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, nullptr, nullptr, nullptr,
                                                       a.Tensor(group), false, mode, a.Tensor(y), a.Tensor(scale), w,
                                                       e);
      },
      aclnnDequantSwigluQuant);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_NE(run.sync, ACL_SUCCESS) << "a count past x's rows must fail the run";
}

// A null quantModeOptional is static; without groups the mode's case is not compared.
TEST(DequantSwigluQuant, ModeDefaultAndCase) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(ACL_FLOAT16, {3, 16}), y(ACL_INT8, {3, 8}), scale(ACL_FLOAT, {3});
  Inputs in;
  in.x = Reals(x.FillRandom(rng, Range{-4, 4}));
  for (const char* mode : {static_cast<const char*>(nullptr), "STATIC", "Dynamic"}) {
    y.Poison();
    scale.Poison();
    std::string text = mode == nullptr ? "" : mode;
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDequantSwigluQuantGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, nullptr, nullptr, nullptr,
                                                         nullptr, true, mode == nullptr ? nullptr : text.data(),
                                                         a.Tensor(y), a.Tensor(scale), w, e);
        },
        aclnnDequantSwigluQuant);
    in.dynamic = text == "Dynamic";
    in.activateLeft = true;
    ExpectMatches(y, scale, Compute(in, 3, 8), 8, in.dynamic, text.empty() ? "null mode" : text);
  }
}

// A NaN in a row makes its dynamic scale NaN and its values 0, as DynamicQuant
// (the NPU's max keeps NaN); std::max dropped it (scale 0.00576, values 127).
TEST(DequantSwigluQuant, NanRowGetsANanScaleAndZeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeviceTensor x(ACL_FLOAT16, {2, 8}), y(ACL_INT8, {2, 4}), scale(ACL_FLOAT, {2});
  x.WriteView({nan, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  char mode[] = "dynamic";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantSwigluQuantGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, nullptr, nullptr, nullptr,
                                                       nullptr, true, mode, a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnDequantSwigluQuant);
  const Values s = scale.ReadView();
  EXPECT_TRUE(std::isnan(s[0].real())) << s[0].real();
  EXPECT_FALSE(std::isnan(s[1].real()));
  const Values q = y.ReadView();
  for (int j = 0; j < 4; ++j) EXPECT_EQ(q[static_cast<size_t>(j)].real(), 0) << j;
  for (int j = 4; j < 8; ++j) EXPECT_EQ(q[static_cast<size_t>(j)].real(), 127) << j;
}

TEST(DequantSwigluQuant, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x = ACL_INT32, weight = ACL_FLOAT, activation = ACL_FLOAT, bias = ACL_FLOAT, scale = ACL_FLOAT,
                offset = ACL_FLOAT, group = ACL_INT64, y = ACL_INT8, scaleOut = ACL_FLOAT;
    Shape xShape = {6, 64}, weightShape = {2, 64}, activationShape = {6}, biasShape = {2, 64}, scaleShape = {2, 32},
          offsetShape = {2, 32}, groupShape = {2}, yShape = {6, 32}, scaleOutShape = {6};
    bool withWeight = true, withBias = false, withOffset = false, withGroup = true, withScale = true;
    const char* mode = "dynamic";
    bool v2 = false;
    int64_t dstType = 2;
    const char* roundMode = "rint";
    int64_t activateDim = -1, swigluMode = 0;
    bool activateLeft = true;
    double clampLimit = 7.0;
    aclnnStatus status = ACLNN_ERR_PARAM_INVALID;
    const char* keyword = "";
  };
  const aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Bad cases[] = {
      {.name = "x dtype", .x = ACL_FLOAT, .keyword = "'x'"},
      {.name = "weight dtype", .weight = ACL_FLOAT16, .keyword = "weightScaleOptional"},
      {.name = "activation dtype", .activation = ACL_BF16, .keyword = "activationScaleOptional"},
      {.name = "bias dtype", .bias = ACL_INT8, .withBias = true, .keyword = "biasOptional"},
      {.name = "bf16 x with f16 bias", .x = ACL_BF16, .bias = ACL_FLOAT16, .withBias = true, .keyword = "biasOptional"},
      {.name = "scale dtype", .scale = ACL_FLOAT16, .keyword = "quantScaleOptional"},
      {.name = "offset dtype", .offset = ACL_BF16, .withOffset = true, .mode = "static", .keyword = "quantOffset"},
      {.name = "group dtype", .group = ACL_INT32, .keyword = "groupIndexOptional"},
      {.name = "y dtype", .y = ACL_INT4, .keyword = "yOut"},
      {.name = "scaleOut dtype", .scaleOut = ACL_FLOAT16, .keyword = "scaleOut"},
      {.name = "quant mode", .mode = "dynamic_msd", .keyword = "quantModeOptional"},
      {.name = "grouped mode case", .mode = "Dynamic", .keyword = "quantModeOptional"},
      {.name = "int x without weight", .withWeight = false, .status = kNull, .keyword = "weightScaleOptional"},
      {.name = "x rank 1", .xShape = {64}, .yShape = {32}, .scaleOutShape = {}, .keyword = "'x'"},
      {.name = "odd last dim", .xShape = {6, 63}, .withGroup = false, .keyword = "even"},
      {.name = "y shape", .yShape = {6, 64}, .keyword = "yOut"},
      {.name = "scaleOut shape", .scaleOutShape = {6, 1}, .keyword = "scaleOut"},
      {.name = "activation count", .activationShape = {5}, .keyword = "activationScaleOptional"},
      {.name = "grouped f16 x", .x = ACL_FLOAT16, .withWeight = false, .keyword = "'x'"},
      {.name = "group rank", .groupShape = {2, 2}, .keyword = "groupIndexOptional"},
      {.name = "group empty", .groupShape = {0}, .keyword = "groupIndexOptional"},
      {.name = "grouped width", .xShape = {6, 96}, .weightShape = {2, 96}, .yShape = {6, 48}, .keyword = "64"},
      {.name = "grouped weight rows", .weightShape = {3, 64}, .keyword = "weightScaleOptional"},
      {.name = "grouped weight 1-D", .weightShape = {64}, .keyword = "weightScaleOptional"},
      {.name = "grouped bias", .biasShape = {2, 32}, .withBias = true, .keyword = "biasOptional"},
      {.name = "grouped dynamic offset", .withOffset = true, .keyword = "quantOffsetOptional"},
      {.name = "grouped dynamic scale", .scaleShape = {2}, .keyword = "quantScaleOptional"},
      {.name = "grouped static without offset", .mode = "static", .status = kNull, .keyword = "quantOffsetOptional"},
      {.name = "grouped static scale",
       .scaleShape = {3},
       .withOffset = true,
       .mode = "static",
       .keyword = "quantScaleOptional"},
      {.name = "grouped static mismatch",
       .scaleShape = {2},
       .withOffset = true,
       .mode = "static",
       .keyword = "must match"},
      {.name = "grouped width limit",
       .xShape = {2, 10624},
       .weightShape = {2, 10624},
       .activationShape = {2},
       .scaleShape = {2, 5312},
       .yShape = {2, 5312},
       .scaleOutShape = {2},
       .status = kTiling,
       .keyword = "unified buffer"},
      {.name = "weight count", .weightShape = {1, 32}, .withGroup = false, .keyword = "weightScaleOptional"},
      {.name = "bias count",
       .weightShape = {64},
       .biasShape = {2, 64},
       .withBias = true,
       .withGroup = false,
       .keyword = "biasOptional"},
      {.name = "scale count",
       .weightShape = {64},
       .scaleShape = {2, 32},
       .withGroup = false,
       .keyword = "quantScaleOptional"},
      {.name = "static without offset",
       .weightShape = {64},
       .scaleShape = {32},
       .withGroup = false,
       .mode = "static",
       .status = kNull,
       .keyword = "quantOffsetOptional"},
      {.name = "offset count",
       .weightShape = {64},
       .scaleShape = {1},
       .offsetShape = {3},
       .withOffset = true,
       .withGroup = false,
       .mode = "static",
       .keyword = "quantOffsetOptional"},
      {.name = "one offset for channel scales",
       .weightShape = {64},
       .scaleShape = {32},
       .offsetShape = {1},
       .withOffset = true,
       .withGroup = false,
       .mode = "static",
       .status = kTiling,
       .keyword = "quantOffsetOptional"},
      {.name = "V2 dstType", .v2 = true, .dstType = 1, .keyword = "dstType"},
      {.name = "V2 round mode", .v2 = true, .roundMode = "floor", .keyword = "roundModeOptional"},
      {.name = "V2 activateDim", .v2 = true, .activateDim = 0, .keyword = "activateDim"},
      {.name = "V2 swigluMode", .v2 = true, .swigluMode = 4, .keyword = "swigluMode"},
      {.name = "V2 mode 1 right", .v2 = true, .swigluMode = 1, .activateLeft = false, .keyword = "activateLeft"},
      {.name = "V2 clampLimit", .v2 = true, .swigluMode = 2, .clampLimit = 0, .keyword = "clampLimit"},
      {.name = "V2 rank 3",
       .xShape = {2, 3, 64},
       .activationShape = {2, 3},
       .yShape = {2, 3, 32},
       .scaleOutShape = {2, 3},
       .v2 = true,
       .keyword = "2-D"},
      {.name = "V2 f16 x", .x = ACL_FLOAT16, .withWeight = false, .v2 = true, .keyword = "'x'"},
      {.name = "V2 bf16 x with weight", .x = ACL_BF16, .v2 = true, .keyword = "weightScaleOptional"},
      {.name = "V2 static without scale",
       .withOffset = true,
       .withScale = false,
       .mode = "static",
       .v2 = true,
       .status = kNull,
       .keyword = "quantScaleOptional"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.name);
    DeviceTensor x(bad.x, bad.xShape), weight(bad.weight, bad.weightShape),
        activation(bad.activation, bad.activationShape), bias(bad.bias, bad.biasShape),
        scale(bad.scale, bad.scaleShape), offset(bad.offset, bad.offsetShape), group(bad.group, bad.groupShape),
        y(bad.y, bad.yShape), scaleOut(bad.scaleOut, bad.scaleOutShape);
    std::string mode = bad.mode, roundMode = bad.roundMode;
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          aclTensor* ws = bad.withWeight ? a.Tensor(weight) : nullptr;
          aclTensor* as = bad.x == ACL_INT32 ? a.Tensor(activation) : nullptr;
          aclTensor* b = bad.withBias ? a.Tensor(bias) : nullptr;
          aclTensor* qo = bad.withOffset ? a.Tensor(offset) : nullptr;
          aclTensor* gi = bad.withGroup ? a.Tensor(group) : nullptr;
          aclTensor* qs = bad.withScale ? a.Tensor(scale) : nullptr;
          if (bad.v2) {
            return aclnnDequantSwigluQuantV2GetWorkspaceSize(
                a.Tensor(x), ws, as, b, qs, qo, gi, bad.activateLeft, mode.data(), bad.dstType, roundMode.data(),
                bad.activateDim, bad.swigluMode, bad.clampLimit, 1.702, 1.0, a.Tensor(y), a.Tensor(scaleOut), w, e);
          }
          return aclnnDequantSwigluQuantGetWorkspaceSize(a.Tensor(x), ws, as, b, qs, qo, gi, bad.activateLeft,
                                                         mode.data(), a.Tensor(y), a.Tensor(scaleOut), w, e);
        },
        bad.v2 ? aclnnDequantSwigluQuantV2 : aclnnDequantSwigluQuant);
    ExpectRejectedWith(run, bad.status, {bad.keyword});
  }
  // V2 needs groupIndexOptional on Atlas A2: null is 161001.
  DeviceTensor x(ACL_BF16, {2, 64}), y(ACL_INT8, {2, 32}), scale(ACL_FLOAT, {2});
  char mode[] = "dynamic";
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantSwigluQuantV2GetWorkspaceSize(a.Tensor(x), nullptr, nullptr, nullptr, nullptr, nullptr,
                                                         nullptr, true, mode, 2, nullptr, -1, 0, 7.0, 1.702, 1.0,
                                                         a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnDequantSwigluQuantV2);
  ExpectRejectedWith(run, ACLNN_ERR_PARAM_NULLPTR, {"groupIndexOptional"});
}

}  // namespace
}  // namespace canopy_test
