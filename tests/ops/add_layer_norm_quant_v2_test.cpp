// aclnnAddLayerNormQuantV2 (A2's static form): x1 + x2 + biasOptional (xOut), its LayerNorm times
// gamma plus beta (layernormRes), quantised to INT8 by multiplying by scales1Optional and adding
// zeroPoints1Optional (y1Out), and by scales2Optional / zeroPoints2Optional into y2Out when given;
// against a float64 reference in every dtype, per column and per tensor, with a bias of gamma's or
// x1's shape, strided views, divMode true (the A2 kernel still multiplies), empties and rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// round(y * scale + zeroPoint) saturated to INT8; one unit off allowed near a rounding boundary.
Expected Quantised(const std::vector<double>& y, size_t length, const std::vector<double>& scale,
                   const std::vector<double>& zeroPoint) {
  Expected want;
  for (size_t i = 0; i < y.size(); ++i) {
    const size_t j = scale.size() == 1 ? 0 : i % length;
    const double q = y[i] * scale[j] + (zeroPoint.empty() ? 0.0 : zeroPoint[j]);
    want.values.emplace_back(std::clamp(std::nearbyint(q), -128.0, 127.0));
    want.tolerance.push_back(std::abs(std::abs(q - std::trunc(q)) - 0.5) < 1e-3 ? 1 : 0);
  }
  return want;
}

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
  ExpectNear(y1.ReadView(), Quantised(y, length, s1, z1), c.name + " y1Out");
  if (c.dual) {
    ExpectNear(y2.ReadView(), Quantised(y, length, s2, z2), c.name + " y2Out");
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
    cases.push_back({"example_" + d, dtype, {2, 32}, {1, 32}, {1}, Bias::kGamma});
    cases.push_back({"per_channel_" + d,
                     dtype,
                     {3, 24},
                     {24},
                     {24},
                     Bias::kNone,
                     true,
                     false,
                     false,
                     View::kTransposed,
                     View::kStepped,
                     View::kReversed});
    cases.push_back({"dual_" + d, dtype, {2, 3, 16}, {16}, {16}, Bias::kX, true, true});
    cases.push_back({"dual_no_zero_points_" + d, dtype, {4, 16}, {1, 16}, {1}, Bias::kNone, false, true});
  }
  cases.push_back(
      {"gamma_2d_f16", ACL_FLOAT16, {2, 3, 4, 8}, {4, 8}, {4, 8}, Bias::kGamma, true, false, false, View::kReversed});
  cases.push_back({"sole_no_zero_point_bf16",
                   ACL_BF16,
                   {5, 40},
                   {40},
                   {40},
                   Bias::kX,
                   false,
                   false,
                   false,
                   View::kStepped,
                   View::kTransposed});
  cases.push_back(
      {"div_mode_still_multiplies_f16", ACL_FLOAT16, {3, 32}, {1, 32}, {1}, Bias::kNone, true, false, true});
  cases.push_back({"long_rows_f32", ACL_FLOAT, {2, 3000}, {3000}, {3000}, Bias::kGamma, true, true});
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
  struct Bad {
    const char* name;
    const char* quantMode;
    aclDataType x, scale, zeroPoint, y1, res;
    Shape gamma, beta, scale1Shape, zeroPointShape, x2;
    bool scales1 = true, scales2 = false, zeroPoints2 = false;
    aclnnStatus status = ACLNN_ERR_PARAM_INVALID;
    const char* keyword = "";
  };
  const aclDataType f16 = ACL_FLOAT16, bf16 = ACL_BF16, f32 = ACL_FLOAT, s8 = ACL_INT8;
  const Bad cases[] = {
      {"dynamic (not on A2)",
       "dynamic",
       f16,
       f16,
       f16,
       s8,
       f16,
       {8},
       {8},
       {8},
       {8},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "quantMode"},
      {"s32 x1",
       "static",
       ACL_INT32,
       ACL_INT32,
       ACL_INT32,
       s8,
       ACL_INT32,
       {8},
       {8},
       {8},
       {8},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "'x1'"},
      {"f32 scales with f16 x1",
       "static",
       f16,
       f32,
       f32,
       s8,
       f16,
       {8},
       {8},
       {8},
       {8},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "'scales1Optional'"},
      {"zero point dtype",
       "static",
       bf16,
       bf16,
       f16,
       s8,
       bf16,
       {8},
       {8},
       {8},
       {8},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "'zeroPoints1Optional'"},
      {"y1Out dtype",
       "static",
       f16,
       f16,
       f16,
       ACL_UINT8,
       f16,
       {8},
       {8},
       {8},
       {8},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "'y1Out'"},
      {"layernormRes dtype",
       "static",
       f16,
       f16,
       f16,
       s8,
       f32,
       {8},
       {8},
       {8},
       {8},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "'layernormRes'"},
      {"beta shape",
       "static",
       f16,
       f16,
       f16,
       s8,
       f16,
       {8},
       {1, 8},
       {8},
       {8},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "'beta'"},
      {"no scales1",
       "static",
       f16,
       f16,
       f16,
       s8,
       f16,
       {8},
       {8},
       {8},
       {8},
       {2, 8},
       false,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "scales1Optional"},
      {"scales1 shape",
       "static",
       f16,
       f16,
       f16,
       s8,
       f16,
       {8},
       {8},
       {4},
       {4},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "scales1Optional"},
      {"gamma not trailing",
       "static",
       f16,
       f16,
       f16,
       s8,
       f16,
       {4},
       {4},
       {4},
       {4},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "gamma"},
      {"x2 shape",
       "static",
       f16,
       f16,
       f16,
       s8,
       f16,
       {8},
       {8},
       {8},
       {8},
       {8, 2},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "'x2'"},
      {"zero point shape",
       "static",
       f16,
       f16,
       f16,
       s8,
       f16,
       {8},
       {8},
       {8},
       {1, 8},
       {2, 8},
       true,
       false,
       false,
       ACLNN_ERR_PARAM_INVALID,
       "'zeroPoints1Optional'"},
      {"scales2 without zeroPoints2",
       "static",
       f16,
       f16,
       f16,
       s8,
       f16,
       {8},
       {8},
       {8},
       {8},
       {2, 8},
       true,
       true,
       false,
       ACLNN_ERR_INNER_TILING_ERROR,
       "zeroPoints2Optional"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x1(bad.x, {2, 8}), x2(bad.x, bad.x2), gamma(bad.x, bad.gamma), beta(bad.x, bad.beta),
        scales1(bad.scale, bad.scale1Shape), scales2(bad.scale, bad.scale1Shape),
        zp1(bad.zeroPoint, bad.zeroPointShape), zp2(bad.zeroPoint, bad.zeroPointShape), y1(bad.y1, {2, 8}),
        y2(s8, {2, 8}), xOut(bad.x, {2, 8}), res(bad.res, {2, 8}), outScales1(f32, {2}), outScales2(f32, {2});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddLayerNormQuantV2GetWorkspaceSize(
              a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(beta), nullptr,
              bad.scales1 ? a.Tensor(scales1) : nullptr, bad.scales2 ? a.Tensor(scales2) : nullptr, a.Tensor(zp1),
              bad.zeroPoints2 ? a.Tensor(zp2) : nullptr, bad.quantMode, kEpsilon, false, false, a.Tensor(y1),
              a.Tensor(y2), a.Tensor(xOut), a.Tensor(res), a.Tensor(outScales1), a.Tensor(outScales2), w, e);
        },
        aclnnAddLayerNormQuantV2);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
