// aclnnLayerNormQuant: LayerNorm of x's rows times gamma plus beta, quantised statically to INT8 by
// one scale and zero point (through half, half to even, saturating), against a float64 reference in
// both A2 dtypes, with strided views, gamma [D], [1, D] and [k, D] (the kernel reads its first row),
// a zero scale (taken as 1), empties, CANN's example shapes and rejections with CANN's codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_layer_norm_quant.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kEpsilon = 1e-5;

struct QuantCase {
  std::string name;
  aclDataType dtype;
  Shape x, gamma;
  double scale;  // rounded to dtype; 0 is taken as 1 by the kernel
  int zeroPoint;
  View xView = View::kContiguous, gammaView = View::kContiguous, resView = View::kContiguous;
};
void PrintTo(const QuantCase& c, std::ostream* os) { *os << c.name; }

// round(y * (1 / scale) + zeroPoint) through half, a zero scale taken as 1 (see ThroughHalfQuant).
Expected StaticQuant(const std::vector<double>& y, double scale, double zeroPoint) {
  const double inverse = 1 / (scale == 0 ? 1 : scale);
  std::vector<double> q;
  q.reserve(y.size());
  for (const double v : y) q.push_back(v * inverse + zeroPoint);
  return ThroughHalfQuant(q);
}

class LayerNormQuantTest : public ::testing::TestWithParam<QuantCase> {};

TEST_P(LayerNormQuantTest, MatchesFloat64Reference) {
  const QuantCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const auto length = static_cast<size_t>(c.x.back());
  DeviceTensor x(c.dtype, c.x, c.xView), gamma(c.dtype, c.gamma, c.gammaView), beta(c.dtype, c.gamma, View::kStepped),
      scale(c.dtype, {1}), zeroPoint(ACL_INT8, {1}), res(ACL_INT8, c.x, c.resView), scaleOut(ACL_FLOAT, {1});
  const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-3, 3}));
  const std::vector<double> gv = Reals(gamma.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> bv = Reals(beta.FillRandom(rng, Range{-1, 1}));
  const double s = ConvertValue(c.scale, c.dtype).real();
  scale.WriteView({s});
  zeroPoint.WriteView({static_cast<double>(c.zeroPoint)});
  res.Poison();
  scaleOut.Poison();
  const std::vector<uint8_t> scaleOutBefore = scaleOut.DownloadBytes();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnLayerNormQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), a.Tensor(scale),
                                                   a.Tensor(zeroPoint), 0, kEpsilon, a.Tensor(res), a.Tensor(scaleOut),
                                                   w, e);
      },
      aclnnLayerNormQuant);
  if (x.numel() == 0) return;
  // The kernel reads gamma's and beta's first row.
  const std::vector<double> g(gv.begin(), gv.begin() + static_cast<std::ptrdiff_t>(length));
  const std::vector<double> b(bv.begin(), bv.begin() + static_cast<std::ptrdiff_t>(length));
  ExpectNear(res.ReadView(), StaticQuant(LayerNormRef(xv, length, g, b, kEpsilon), s, c.zeroPoint), c.name);
  EXPECT_EQ(scaleOut.DownloadBytes(), scaleOutBefore) << c.name << ": scaleOut is quantMode 1's";
}

std::vector<QuantCase> QuantCases() {
  std::vector<QuantCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({"example_shapes_" + d, dtype, {1, 1, 32}, {1, 32}, 0.05, 1});
    cases.push_back(
        {"views_" + d, dtype, {4, 3, 24}, {24}, 0.02, -3, View::kTransposed, View::kReversed, View::kStepped});
    cases.push_back(
        {"saturating_" + d, dtype, {6, 40}, {1, 40}, 0.008, 5, View::kStepped, View::kStepped, View::kTransposed});
    cases.push_back({"gamma_rows_" + d, dtype, {5, 16}, {3, 16}, 0.03, 0, View::kOffset});
    cases.push_back({"zero_scale_" + d, dtype, {2, 3, 8}, {8}, 0, 2});
    cases.push_back({"long_rows_" + d, dtype, {3, 3000}, {3000}, 0.03, -1});
    cases.push_back({"empty_" + d, dtype, {0, 8}, {8}, 0.5, 0});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, LayerNormQuantTest, ::testing::ValuesIn(QuantCases()),
                         [](const ::testing::TestParamInfo<QuantCase>& info) { return info.param.name; });

TEST(LayerNormQuant, NullScaleOutIsAccepted) {
  DeviceTensor x(ACL_FLOAT16, {2, 8}), gamma(ACL_FLOAT16, {8}), beta(ACL_FLOAT16, {8}), scale(ACL_FLOAT16, {1}),
      zeroPoint(ACL_INT8, {1}), res(ACL_INT8, {2, 8});
  Rng rng = Rng::ForCurrentTest();
  const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> gv = Reals(gamma.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> bv = Reals(beta.FillRandom(rng, Range{-1, 1}));
  scale.WriteView({0.0625});
  zeroPoint.WriteView({-2});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnLayerNormQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), a.Tensor(scale),
                                                   a.Tensor(zeroPoint), 0, kEpsilon, a.Tensor(res), nullptr, w, e);
      },
      aclnnLayerNormQuant);
  ExpectNear(res.ReadView(), StaticQuant(LayerNormRef(xv, 8, gv, bv, kEpsilon), 0.0625, -2), "null scaleOut");
}

TEST(LayerNormQuant, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x, gamma, scale, zeroPoint, res;
    Shape gammaShape, betaShape, scaleShape, zeroPointShape, resShape;
    int quantMode;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f16 = ACL_FLOAT16, bf16 = ACL_BF16, f32 = ACL_FLOAT, s8 = ACL_INT8;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  const Bad cases[] = {
      {"f32 x (not on A2)", f32, f32, f32, s8, s8, {8}, {8}, {1}, {1}, {2, 8}, 0, kInvalid, "'x'"},
      {"gamma dtype", f16, bf16, f16, s8, s8, {8}, {8}, {1}, {1}, {2, 8}, 0, kInvalid, "'gamma'"},
      {"scale dtype", bf16, bf16, f32, s8, s8, {8}, {8}, {1}, {1}, {2, 8}, 0, kInvalid, "'scale'"},
      {"zero point dtype",
       f16,
       f16,
       f16,
       ACL_INT32,
       s8,
       {8},
       {8},
       {1},
       {1},
       {2, 8},
       0,
       kInvalid,
       "'zeroPointsOptional'"},
      {"res dtype", f16, f16, f16, s8, ACL_INT32, {8}, {8}, {1}, {1}, {2, 8}, 0, kInvalid, "'res'"},
      {"gamma rank 3", f16, f16, f16, s8, s8, {1, 1, 8}, {1, 1, 8}, {1}, {1}, {2, 8}, 0, kInvalid, "'gamma'"},
      {"dynamic mode", f16, f16, f16, s8, s8, {8}, {8}, {1}, {1}, {2, 8}, 1, kInvalid, "quantMode"},
      {"gamma length", f16, f16, f16, s8, s8, {4}, {4}, {1}, {1}, {2, 8}, 0, kInvalid, "'gamma'"},
      {"beta shape", f16, f16, f16, s8, s8, {1, 8}, {8}, {1}, {1}, {2, 8}, 0, kInvalid, "'beta'"},
      {"scale shape", f16, f16, f16, s8, s8, {8}, {8}, {2}, {2}, {2, 8}, 0, kInvalid, "'scale'"},
      {"zero point rank", f16, f16, f16, s8, s8, {8}, {8}, {1}, {1, 1}, {2, 8}, 0, kInvalid, "'zeroPointsOptional'"},
      {"res shape", f16, f16, f16, s8, s8, {8}, {8}, {1}, {1}, {16}, 0, kInvalid, "'res'"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.x, {2, 8}), gamma(bad.gamma, bad.gammaShape), beta(bad.gamma, bad.betaShape),
        scale(bad.scale, bad.scaleShape), zeroPoint(bad.zeroPoint, bad.zeroPointShape), res(bad.res, bad.resShape),
        scaleOut(ACL_FLOAT, {2});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnLayerNormQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), a.Tensor(scale),
                                                     a.Tensor(zeroPoint), bad.quantMode, kEpsilon, a.Tensor(res),
                                                     a.Tensor(scaleOut), w, e);
        },
        aclnnLayerNormQuant);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
  // quantMode 0 needs the zero point (161001).
  DeviceTensor x(f16, {2, 8}), gamma(f16, {8}), beta(f16, {8}), scale(f16, {1}), res(s8, {2, 8});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnLayerNormQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), a.Tensor(scale),
                                                   nullptr, 0, kEpsilon, a.Tensor(res), nullptr, w, e);
      },
      aclnnLayerNormQuant);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_NULLPTR) << Describe(run);
  EXPECT_NE(run.message.find("zeroPointsOptional"), std::string::npos) << run.message;
}

}  // namespace
}  // namespace canopy_test
