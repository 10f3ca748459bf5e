// aclnnDequantBias against a float64 reference: out = (x + bias) * weightScale
// * activateScale for an INT32 bias, x * weightScale * activateScale + bias
// for a float one; f16 (f32 weightScale) and bf16 (bf16 weightScale) outputs,
// each bias dtype or none, with and without activateScaleOptional, strided
// views, empty x, the doc's example shapes and the rejections (161002 from the
// host checks, 561002 from the tiling's).
#include <gtest/gtest.h>

#include <cmath>

#include "aclnnop/aclnn_dequant_bias.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType out = ACL_FLOAT16, bias = ACL_DT_UNDEFINED;  // undefined: no bias
  bool activate = true;
  Shape shape = {6, 40};
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t m = c.shape[0], n = c.shape[1];
  const aclDataType ws_dtype = c.out == ACL_BF16 ? ACL_BF16 : ACL_FLOAT;
  DeviceTensor x(ACL_INT32, c.shape, c.view), weight(ws_dtype, {n}), activate(ACL_FLOAT, {m});
  const bool has_bias = c.bias != ACL_DT_UNDEFINED;
  DeviceTensor bias(has_bias ? c.bias : ACL_FLOAT, {n});
  const Values xv = x.FillRandom(rng, Range{-3000, 3000});
  const Values wv = weight.FillRandom(rng, Range{-0.01, 0.01});
  const Values av = activate.FillRandom(rng, Range{0.5, 2});
  const Values bv = bias.FillRandom(rng, c.bias == ACL_INT32 ? Range{-200, 200} : Range{-5, 5});
  DeviceTensor out(c.out, c.shape, c.view);
  out.Poison();
  const int64_t output_dtype = c.out;
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantBiasGetWorkspaceSize(a.Tensor(x), a.Tensor(weight),
                                                c.activate ? a.Tensor(activate) : nullptr,
                                                has_bias ? a.Tensor(bias) : nullptr, output_dtype, a.Tensor(out), w, e);
      },
      aclnnDequantBias);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // One unit of out's rounding (f32 inside is far finer) on the terms' magnitude.
  const double eps = c.out == ACL_BF16 ? std::ldexp(1.0, -8) : std::ldexp(1.0, -11);
  Values want;
  std::vector<double> tolerance;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double a = xv[static_cast<size_t>(i * n + j)].real();
      const double b = has_bias ? bv[static_cast<size_t>(j)].real() : 0.0;
      if (c.bias == ACL_INT32) a += b;
      double v = a * wv[static_cast<size_t>(j)].real() * (c.activate ? av[static_cast<size_t>(i)].real() : 1.0);
      const double magnitude = std::abs(v) + (c.bias == ACL_INT32 ? 0.0 : std::abs(b));
      if (has_bias && c.bias != ACL_INT32) v += b;
      want.emplace_back(v);
      tolerance.push_back(2 * eps * magnitude + 1e-6);
    }
  }
  ExpectNear(out.ReadView(), Expected{want, tolerance}, "out");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType out : {ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType bias : {ACL_DT_UNDEFINED, ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (bool activate : {true, false}) {
        Case c;
        c.out = out;
        c.bias = bias;
        c.activate = activate;
        c.name = std::string(Name(out)) + "_bias_" + (bias == ACL_DT_UNDEFINED ? "none" : Name(bias)) +
                 (activate ? "_activate_scale" : "");
        cases.push_back(c);
      }
    }
  }
  Case transposed;
  transposed.bias = ACL_INT32;
  transposed.view = View::kTransposed;
  transposed.name = "transposed_views";
  cases.push_back(transposed);
  Case stepped;
  stepped.out = ACL_BF16;
  stepped.bias = ACL_FLOAT;
  stepped.view = View::kStepped;
  stepped.name = "stepped_views";
  cases.push_back(stepped);
  return cases;
}

class DequantBiasTest : public ::testing::TestWithParam<Case> {};
TEST_P(DequantBiasTest, MatchesReference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, DequantBiasTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc example's shapes (x [40, 256] INT32, f32 scales, f32 bias, f16 out) with x = 1, scales 2, bias 2.
TEST(DequantBias, DocExampleAndEmpty) {
  DeviceTensor x(ACL_INT32, {40, 256}), weight(ACL_FLOAT, {256}), activate(ACL_FLOAT, {40}), bias(ACL_FLOAT, {256}),
      y(ACL_FLOAT16, {40, 256});
  x.WriteView(Values(40 * 256, 1.0));
  weight.WriteView(Values(256, 2.0));
  activate.WriteView(Values(40, 2.0));
  bias.WriteView(Values(256, 2.0));
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantBiasGetWorkspaceSize(a.Tensor(x), a.Tensor(weight), a.Tensor(activate), a.Tensor(bias), 1,
                                                a.Tensor(y), w, e);
      },
      aclnnDequantBias);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(y.ReadView(), Expected{Values(40 * 256, 6.0), std::vector<double>(40 * 256, 0.0)}, "y");
  DeviceTensor ex(ACL_INT32, {0, 8}), ew(ACL_FLOAT, {8}), ey(ACL_FLOAT16, {0, 8});
  const OpRun empty = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantBiasGetWorkspaceSize(a.Tensor(ex), a.Tensor(ew), nullptr, nullptr, 1, a.Tensor(ey), w, e);
      },
      aclnnDequantBias);
  EXPECT_TRUE(empty.ok()) << Describe(empty);
  EXPECT_EQ(empty.workspaceSize, 0U);
}

struct Call {
  aclDataType x = ACL_INT32, weight = ACL_FLOAT, activate = ACL_FLOAT, bias = ACL_INT32, out = ACL_FLOAT16;
  Shape x_shape = {4, 8}, weight_shape = {8}, activate_shape = {4}, bias_shape = {8}, out_shape = {4, 8};
  int64_t output_dtype = 1;
};

// The phase 1 of Call{} after `edit`: its status, with `message` in the error where it fails.
template <typename Edit>
aclnnStatus Phase1(Edit edit, const std::vector<std::string>& message = {}) {
  Call c;
  edit(c);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDequantBiasGetWorkspaceSize(a.NewTensor(c.x, c.x_shape), a.NewTensor(c.weight, c.weight_shape),
                                                a.NewTensor(c.activate, c.activate_shape),
                                                a.NewTensor(c.bias, c.bias_shape), c.output_dtype,
                                                a.NewTensor(c.out, c.out_shape), w, e);
      },
      aclnnDequantBias);
  if (run.phase1 != ACLNN_SUCCESS) ExpectRejectedWith(run, run.phase1, message);
  return run.phase1;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

TEST(DequantBiasRejects, EachCase) {
  EXPECT_EQ(Phase1([](Call&) {}), ACLNN_SUCCESS);
  EXPECT_EQ(Phase1([](Call& c) {
              c.weight = c.out = c.bias = ACL_BF16;
              c.output_dtype = 27;
            }),
            ACLNN_SUCCESS);
  // Host checks: x, weightScale, out and their pairing.
  EXPECT_EQ(Phase1([](Call& c) { c.x = ACL_INT8; }, {"'x'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.weight = ACL_FLOAT16; }, {"'weightScale'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.out = ACL_FLOAT; }, {"'out'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.out = ACL_BF16; }, {"'out'", "weightScale"}), kInvalid);
  // The tiling's checks.
  EXPECT_EQ(Phase1([](Call& c) { c.output_dtype = 0; }, {"'outputDtype'"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.x_shape = c.out_shape = {2, 2, 8}; }, {"'x'", "rank"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.weight_shape = {1, 8}; }, {"'weightScale'", "rank"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.activate_shape = {4, 1}; }, {"'activateScaleOptional'", "rank"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.bias_shape = {8, 1}; }, {"'biasOptional'", "rank"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.out_shape = {32}; }, {"'out'", "rank"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.weight_shape = {4}; }, {"'weightScale'"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.activate_shape = {8}; }, {"'activateScaleOptional'"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.bias_shape = {4}; }, {"'biasOptional'"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.out_shape = {4, 4}; }, {"'out'"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.activate = ACL_BF16; }, {"'activateScaleOptional'"}), kTiling);
  EXPECT_EQ(Phase1([](Call& c) { c.bias = ACL_INT8; }, {"'biasOptional'"}), kTiling);
  EXPECT_EQ(Phase1(
                [](Call& c) {
                  c.x_shape = c.out_shape = {25001, 8};
                  c.activate_shape = {25001};
                },
                {"25000"}),
            kTiling);
  // An empty optional is not compared with x.
  EXPECT_EQ(Phase1([](Call& c) { c.activate_shape = c.bias_shape = {0}; }), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace canopy_test
