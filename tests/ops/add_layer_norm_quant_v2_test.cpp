// aclnnAddLayerNormQuantV2 (A2's static form): x1 + x2 + biasOptional (xOut), its LayerNorm times
// gamma plus beta (layernormRes), quantised to INT8 by multiplying by scales1Optional and adding
// zeroPoints1Optional (y1Out), and by scales2Optional / zeroPoints2Optional into y2Out when given;
// against a float64 reference in every dtype, per column and per tensor, with a bias of gamma's or
// x1's shape, strided views, divMode true (the A2 kernel still multiplies), empties and rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_layer_norm_quant_v2.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kEpsilon = 1e-5;

enum class Bias { kNone, kGamma, kX };

struct QuantCase {
  std::string name;
  aclDataType dtype;
  Shape x, gamma, scale;  // scale [1] with gamma [1, D]: the per-tensor form
  Bias bias = Bias::kNone;
  bool zeroPoints = true, dual = false, divMode = false;
  View x1View = View::kContiguous, yView = View::kContiguous, resView = View::kContiguous;
};
void PrintTo(const QuantCase& c, std::ostream* os) { *os << c.name; }

class AddLayerNormQuantV2Test : public ::testing::TestWithParam<QuantCase> {};

TEST_P(AddLayerNormQuantV2Test, MatchesFloat64Reference) {
  const QuantCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const bool perTensor = NumElements(c.scale) == 1 && c.gamma.size() == 2 && c.gamma[0] == 1;
  const auto length = static_cast<size_t>(perTensor ? c.gamma.back() : NumElements(c.gamma));
  DeviceTensor x1(c.dtype, c.x, c.x1View), x2(c.dtype, c.x, View::kStepped), gamma(c.dtype, c.gamma),
      beta(c.dtype, c.gamma, View::kStepped), scales1(c.dtype, c.scale), y1(ACL_INT8, c.x, c.yView), y2(ACL_INT8, c.x),
      xOut(c.dtype, c.x), res(c.dtype, c.x, c.resView), outScales1(ACL_FLOAT, {2}), outScales2(ACL_FLOAT, {2});
  std::optional<DeviceTensor> bias, scales2, zp1, zp2;
  const std::vector<double> a = Reals(x1.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> b = Reals(x2.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> g = Reals(gamma.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> be = Reals(beta.FillRandom(rng, Range{-1, 1}));
  std::vector<double> biasValues, s2, z1, z2;
  if (c.bias != Bias::kNone) {
    bias.emplace(c.dtype, c.bias == Bias::kGamma ? c.gamma : c.x, View::kOffset);
    biasValues = Reals(bias->FillRandom(rng, Range{-1, 1}));
  }
  // Scales that spread y over INT8's range and saturate a few values.
  const Range scaleRange{25, 60};
  const std::vector<double> s1 = Reals(scales1.FillRandom(rng, scaleRange));
  if (c.zeroPoints) {
    zp1.emplace(c.dtype, c.scale);
    z1 = Reals(zp1->FillRandom(rng, Range{-6, 6}));
  }
  if (c.dual) {
    scales2.emplace(c.dtype, c.scale, View::kOffset);
    s2 = Reals(scales2->FillRandom(rng, scaleRange));
    if (c.zeroPoints) {
      zp2.emplace(c.dtype, c.scale, View::kStepped);
      z2 = Reals(zp2->FillRandom(rng, Range{-6, 6}));
    }
  }
  for (DeviceTensor* t : {&y1, &y2, &xOut, &res, &outScales1, &outScales2}) t->Poison();
  const std::vector<uint8_t> y2Before = y2.DownloadBytes(), scalesBefore = outScales1.DownloadBytes();
  ExpectRuns(
      [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddLayerNormQuantV2GetWorkspaceSize(
            args.Tensor(x1), args.Tensor(x2), args.Tensor(gamma), args.Tensor(beta), Or(args, bias),
            args.Tensor(scales1), Or(args, scales2), Or(args, zp1), Or(args, zp2), "static", kEpsilon, true, c.divMode,
            args.Tensor(y1), args.Tensor(y2), args.Tensor(xOut), args.Tensor(res), args.Tensor(outScales1),
            args.Tensor(outScales2), w, e);
      },
      aclnnAddLayerNormQuantV2);
  std::vector<double> sum(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const double addend = c.bias == Bias::kNone ? 0.0 : biasValues[c.bias == Bias::kX ? i : i % biasValues.size()];
    sum[i] = a[i] + b[i] + addend;
  }
  const std::vector<double> y = LayerNormRef(sum, length, g, be, kEpsilon);
  ExpectNear(xOut.ReadView(), Within(sum, 1.0, c.dtype, 2), c.name + " xOut");
  ExpectNear(res.ReadView(), Within(y, 1.0, c.dtype, 4), c.name + " layernormRes");
  const auto span = static_cast<int64_t>(length);
  ExpectNear(y1.ReadView(), ColumnQuant(y, span, false, s1, zp1 ? &z1 : nullptr), c.name + " y1Out");
  if (c.dual) {
    ExpectNear(y2.ReadView(), ColumnQuant(y, span, false, s2, zp2 ? &z2 : nullptr), c.name + " y2Out");
  } else {
    EXPECT_EQ(y2.DownloadBytes(), y2Before) << c.name << ": y2Out is left alone without scales2Optional";
  }
  EXPECT_EQ(outScales1.DownloadBytes(), scalesBefore) << c.name << ": the out scales are the dynamic form's";
}

std::vector<QuantCase> QuantCases() {
  std::vector<QuantCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    const std::string d = Name(dtype);
    // CANN's example: per tensor, a bias of gamma's shape, one zero point.
    cases.push_back(
        {.name = "example_" + d, .dtype = dtype, .x = {2, 32}, .gamma = {1, 32}, .scale = {1}, .bias = Bias::kGamma});
    cases.push_back({.name = "per_channel_" + d,
                     .dtype = dtype,
                     .x = {3, 24},
                     .gamma = {24},
                     .scale = {24},
                     .x1View = View::kTransposed,
                     .yView = View::kStepped,
                     .resView = View::kReversed});
    cases.push_back({.name = "dual_" + d,
                     .dtype = dtype,
                     .x = {2, 3, 16},
                     .gamma = {16},
                     .scale = {16},
                     .bias = Bias::kX,
                     .dual = true});
    cases.push_back({.name = "dual_no_zero_points_" + d,
                     .dtype = dtype,
                     .x = {4, 16},
                     .gamma = {1, 16},
                     .scale = {1},
                     .zeroPoints = false,
                     .dual = true});
  }
  cases.push_back({.name = "gamma_2d_f16",
                   .dtype = ACL_FLOAT16,
                   .x = {2, 3, 4, 8},
                   .gamma = {4, 8},
                   .scale = {4, 8},
                   .bias = Bias::kGamma,
                   .x1View = View::kReversed});
  cases.push_back({.name = "sole_no_zero_point_bf16",
                   .dtype = ACL_BF16,
                   .x = {5, 40},
                   .gamma = {40},
                   .scale = {40},
                   .bias = Bias::kX,
                   .zeroPoints = false,
                   .x1View = View::kStepped,
                   .yView = View::kTransposed});
  cases.push_back({.name = "div_mode_still_multiplies_f16",
                   .dtype = ACL_FLOAT16,
                   .x = {3, 32},
                   .gamma = {1, 32},
                   .scale = {1},
                   .divMode = true});
  cases.push_back({.name = "long_rows_f32",
                   .dtype = ACL_FLOAT,
                   .x = {2, 3000},
                   .gamma = {3000},
                   .scale = {3000},
                   .bias = Bias::kGamma,
                   .dual = true});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, AddLayerNormQuantV2Test, ::testing::ValuesIn(QuantCases()),
                         [](const ::testing::TestParamInfo<QuantCase>& info) { return info.param.name; });

TEST(AddLayerNormQuantV2, EmptyComputesNothing) {
  // An empty x1, and an empty y2Out or out scale (CANN's host code returns at once for each).
  struct Empty {
    Shape x, y2, outScales;
  };
  for (const Empty& empty : {Empty{{0, 8}, {0, 8}, {2}}, Empty{{2, 8}, {0}, {2}}, Empty{{2, 8}, {2, 8}, {0}}}) {
    DeviceTensor x1(ACL_FLOAT16, empty.x), x2(ACL_FLOAT16, empty.x), gamma(ACL_FLOAT16, {8}), beta(ACL_FLOAT16, {8}),
        scales1(ACL_FLOAT16, {8}), y1(ACL_INT8, empty.x), y2(ACL_INT8, empty.y2), xOut(ACL_FLOAT16, empty.x),
        res(ACL_FLOAT16, empty.x), outScales1(ACL_FLOAT, empty.outScales), outScales2(ACL_FLOAT, {2});
    Rng rng = Rng::ForCurrentTest();
    x1.FillRandom(rng, Range{-2, 2});
    x2.FillRandom(rng, Range{-2, 2});
    scales1.FillRandom(rng, Range{0.5, 1});
    xOut.Poison();
    const std::vector<uint8_t> before = xOut.DownloadBytes();
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddLayerNormQuantV2GetWorkspaceSize(
              a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(beta), nullptr, a.Tensor(scales1), nullptr, nullptr,
              nullptr, "static", kEpsilon, false, false, a.Tensor(y1), a.Tensor(y2), a.Tensor(xOut), a.Tensor(res),
              a.Tensor(outScales1), a.Tensor(outScales2), w, e);
        },
        aclnnAddLayerNormQuantV2);
    EXPECT_EQ(xOut.DownloadBytes(), before);
  }
}

TEST(AddLayerNormQuantV2, Rejections) {
  // A valid static call, then one change each.
  struct Call {
    const char* quantMode = "static";
    aclDataType x = ACL_FLOAT16, scale = ACL_FLOAT16, zeroPoint = ACL_FLOAT16, y1 = ACL_INT8, res = ACL_FLOAT16;
    Shape gamma{8}, beta{8}, scales1Shape{8}, zeroPointShape{8}, x2{2, 8};
    bool scales1 = true, scales2 = false;
  };
  struct Bad {
    const char* name;
    std::function<void(Call&)> change;
    aclnnStatus status;
    const char* keyword;
  };
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  const Bad cases[] = {
      {"dynamic (not on A2)", [](Call& c) { c.quantMode = "dynamic"; }, kInvalid, "quantMode"},
      {"s32 x1", [](Call& c) { c.x = c.scale = c.zeroPoint = c.res = ACL_INT32; }, kInvalid, "'x1'"},
      {"f32 scales with f16 x1", [](Call& c) { c.scale = c.zeroPoint = ACL_FLOAT; }, kInvalid, "'scales1Optional'"},
      {"zero point dtype", [](Call& c) { c.zeroPoint = ACL_BF16; }, kInvalid, "'zeroPoints1Optional'"},
      {"y1Out dtype", [](Call& c) { c.y1 = ACL_UINT8; }, kInvalid, "'y1Out'"},
      {"layernormRes dtype", [](Call& c) { c.res = ACL_FLOAT; }, kInvalid, "'layernormRes'"},
      {"beta shape",
       [](Call& c) {
         c.beta = {1, 8};
       },
       kInvalid, "'beta'"},
      {"no scales1", [](Call& c) { c.scales1 = false; }, kInvalid, "scales1Optional"},
      {"scales1 shape", [](Call& c) { c.scales1Shape = c.zeroPointShape = {4}; }, kInvalid, "scales1Optional"},
      {"gamma not trailing", [](Call& c) { c.gamma = c.beta = c.scales1Shape = c.zeroPointShape = {4}; }, kInvalid,
       "gamma"},
      {"x2 shape",
       [](Call& c) {
         c.x2 = {8, 2};
       },
       kInvalid, "'x2'"},
      {"zero point shape",
       [](Call& c) {
         c.zeroPointShape = {1, 8};
       },
       kInvalid, "'zeroPoints1Optional'"},
      {"scales2 without zeroPoints2", [](Call& c) { c.scales2 = true; }, ACLNN_ERR_INNER_TILING_ERROR,
       "zeroPoints2Optional"},
  };
  for (const Bad& bad : cases) {
    Call c;
    bad.change(c);
    DeviceTensor x1(c.x, {2, 8}), x2(c.x, c.x2), gamma(c.x, c.gamma), beta(c.x, c.beta),
        scales1(c.scale, c.scales1Shape), scales2(c.scale, c.scales1Shape), zp1(c.zeroPoint, c.zeroPointShape),
        y1(c.y1, {2, 8}), y2(ACL_INT8, {2, 8}), xOut(c.x, {2, 8}), res(c.res, {2, 8}), outScales1(ACL_FLOAT, {2}),
        outScales2(ACL_FLOAT, {2});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddLayerNormQuantV2GetWorkspaceSize(
              a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(beta), nullptr,
              c.scales1 ? a.Tensor(scales1) : nullptr, c.scales2 ? a.Tensor(scales2) : nullptr, a.Tensor(zp1), nullptr,
              c.quantMode, kEpsilon, false, false, a.Tensor(y1), a.Tensor(y2), a.Tensor(xOut), a.Tensor(res),
              a.Tensor(outScales1), a.Tensor(outScales2), w, e);
        },
        aclnnAddLayerNormQuantV2);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
