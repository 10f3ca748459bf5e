// Harness rows of the optimiser steps that fit one: ApplyGradientDescent (var -= alpha * delta in place,
// alpha a one-element tensor of any rank) against a float64 reference; ApplyFtrl (three tensors updated
// in place) against its own float64 reference in each dtype and view; then their rejections with CANN's
// codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_ftrl.h"
#include "aclnnop/aclnn_apply_gradient_descent.h"
#include "harness/harness.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

std::vector<OpRow> OptimRows() {
  OpRow row;
  row.name = "ApplyGradientDescent";
  row.inputs = {Arg{.name = "var"}, Arg{.name = "alpha", .range = Range{0.01, 1.5}}, Arg{.name = "delta"}};
  row.inplace = {[](Call& c) {
                   return aclnnApplyGradientDescentGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2),
                                                                    c.workspaceSize, c.executor);
                 },
                 aclnnApplyGradientDescent};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16});
  row.shapes = {{"typical", {{3, 5}, {1}, {3, 5}}, true},
                {"alpha_rank0", {{4, 2, 3}, {}, {4, 2, 3}}},
                {"alpha_rank3", {{2, 3, 4}, {1, 1, 1}, {2, 3, 4}}},
                {"rank0", {{}, {}, {}}},
                {"rank8", {{2, 1, 2, 1, 2, 1, 2, 3}, {1}, {2, 1, 2, 1, 2, 1, 2, 3}}},
                {"empty", {{0, 3}, {1}, {0, 3}}},
                {"large", {{67, 129}, {1}, {67, 129}}, true}};
  row.outShape = ShapeOfInput(0);
  // Computed in FLOAT and rounded once: the error follows the terms (var and alpha * delta), not their difference.
  row.reference = Pointwise([](const std::vector<Value>& x, const AttrSet&) { return x[0] - x[1] * x[2]; });
  row.tolerance.minMagnitude = 4;
  return {row};
}
CANOPY_HARNESS_ROWS(OptimRows);

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

// CANN's order: var's dtype in the list, alpha's and delta's var's, delta of var's shape, alpha of one
// element; every one 161002.
std::vector<RejectionCase> GradientDescentRejections() {
  struct Bad {
    const char* name;
    aclDataType var, alpha, delta;
    Shape alphaShape, deltaShape;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16;
  const Bad cases[] = {
      {"double_var", ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, {1}, {2, 3}, "var"},
      {"int32_var", ACL_INT32, ACL_INT32, ACL_INT32, {1}, {2, 3}, "var"},
      {"alpha_dtype", f16, f32, f16, {1}, {2, 3}, "alpha"},
      {"delta_dtype", f32, f32, ACL_BF16, {1}, {2, 3}, "delta"},
      {"delta_broadcast", f32, f32, f32, {1}, {1, 3}, "delta"},
      {"delta_rank", f32, f32, f32, {1}, {6}, "delta"},
      {"alpha_two_elements", f32, f32, f32, {2}, {2, 3}, "alpha"},
      {"alpha_empty", f32, f32, f32, {0}, {2, 3}, "alpha"},
  };
  std::vector<RejectionCase> rejections;
  for (const Bad& b : cases) {
    rejections.push_back({std::string("ApplyGradientDescent_") + b.name,
                          [b](A& a, W w, E e) {
                            return aclnnApplyGradientDescentGetWorkspaceSize(a.NewTensor(b.var, {2, 3}),
                                                                             a.NewTensor(b.alpha, b.alphaShape),
                                                                             a.NewTensor(b.delta, b.deltaShape), w, e);
                          },
                          aclnnApplyGradientDescent, b.keyword});
  }
  return rejections;
}

// ---- ApplyFtrl ------------------------------------------------------------------------------------

struct FtrlCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  Shape shape{4, 33};
  View view = View::kContiguous;
  Shape scalarShape{1};
  double lrPower = -0.5, l1 = 0.05;
};

void PrintTo(const FtrlCase& c, std::ostream* os) { *os << c.name; }

class ApplyFtrlTest : public ::testing::TestWithParam<FtrlCase> {};

// var, accum and linear in place; accum', linear' and var' from the values as stored, in float64. The
// step runs in FLOAT and rounds each result once to the dtype: linear' and var' carry FLOAT's error of
// the terms they sum, var' that of linear' divided by the quadratic.
TEST_P(ApplyFtrlTest, MatchesFloat64Reference) {
  const FtrlCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor var(c.dtype, c.shape, c.view), accum(c.dtype, c.shape, c.view), linear(c.dtype, c.shape, c.view),
      grad(c.dtype, c.shape, c.view);
  const Values v0 = var.FillRandom(rng, Range{-1, 1}), a0 = accum.FillRandom(rng, Range{0.1, 2}),
               lin0 = linear.FillRandom(rng, Range{-0.3, 0.3}), g = grad.FillRandom(rng, Range{-1, 1});
  DeviceTensor lr(c.dtype, c.scalarShape), l1(c.dtype, c.scalarShape), l2(c.dtype, c.scalarShape),
      power(c.dtype, c.scalarShape);
  lr.WriteView({0.05});
  l1.WriteView({c.l1});
  l2.WriteView({0.02});
  power.WriteView({c.lrPower});
  const double rate = lr.ReadView()[0].real(), l1v = l1.ReadView()[0].real(), l2v = l2.ReadView()[0].real(),
               p = power.ReadView()[0].real();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnApplyFtrlGetWorkspaceSize(a.Tensor(var), a.Tensor(accum), a.Tensor(linear), a.Tensor(grad),
                                              a.Tensor(lr), a.Tensor(l1), a.Tensor(l2), a.Tensor(power), false, ws, e);
      },
      aclnnApplyFtrl);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double u = UnitRoundoff(c.dtype), f = UnitRoundoff(ACL_FLOAT);
  Expected wantVar, wantAccum, wantLinear;
  for (size_t i = 0; i < v0.size(); ++i) {
    const double a = a0[i].real(), gi = g[i].real(), vi = v0[i].real(), li = lin0[i].real();
    const double aNew = a + gi * gi, newPower = std::pow(aNew, -p), sigma = (newPower - std::pow(a, -p)) / rate;
    const double linNew = li + gi - sigma * vi, quadratic = newPower / rate + 2 * l2v;
    const double varNew = (std::clamp(linNew, -l1v, l1v) - linNew) / quadratic;
    const double linTerms = std::abs(li) + std::abs(gi) + std::abs(sigma * vi) + std::abs(newPower / rate);
    wantAccum.values.push_back(aNew);
    wantAccum.tolerance.push_back(2 * u * aNew);
    wantLinear.values.push_back(linNew);
    wantLinear.tolerance.push_back(2 * u * std::abs(linNew) + 16 * f * linTerms);
    wantVar.values.push_back(varNew);
    wantVar.tolerance.push_back(2 * u * std::abs(varNew) + 16 * f * (linTerms / quadratic + std::abs(varNew)));
  }
  ExpectNear(accum.ReadView(), wantAccum, c.name + " accum");
  ExpectNear(linear.ReadView(), wantLinear, c.name + " linear");
  ExpectNear(var.ReadView(), wantVar, c.name + " var");
  ExpectExact(grad.ReadView(), g, "grad must not change");
}

std::vector<FtrlCase> FtrlCases() {
  std::vector<FtrlCase> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = std::string(Name(dtype)) + "_";
    cases.push_back({n + "contiguous", dtype});
    cases.push_back({n + "stepped_scalars_rank0", dtype, {5, 6}, View::kStepped, {}, -0.5, 0.1});
    cases.push_back({n + "transposed_power_0_7", dtype, {7, 9}, View::kTransposed, {1, 1}, -0.7, 0.02});
    cases.push_back({n + "no_l1_rank1", dtype, {129}, View::kOffset, {1}, -0.5, 0});
  }
  cases.push_back({"f32_rank0", ACL_FLOAT, {}, View::kContiguous, {}});
  cases.push_back({"f32_empty", ACL_FLOAT, {0, 4}});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, ApplyFtrlTest, ::testing::ValuesIn(FtrlCases()),
                         [](const ::testing::TestParamInfo<FtrlCase>& info) { return SanitizeName(info.param.name); });

// CANN's order: varRef's dtype in the list, every other one varRef's, accumRef / linearRef / grad of
// varRef's shape, lr / l1 / l2 / lrPower of one element; every one 161002.
std::vector<RejectionCase> FtrlRejections() {
  struct Bad {
    const char* name;
    int arg;  // the argument made wrong: 0 varRef .. 7 lrPower
    aclDataType dtype;
    Shape shape;
    const char* keyword;
  };
  const Bad cases[] = {
      {"double_var", 0, ACL_DOUBLE, {2, 3}, "varRef"},
      {"accum_dtype", 1, ACL_FLOAT16, {2, 3}, "accumRef"},
      {"grad_dtype", 3, ACL_BF16, {2, 3}, "grad"},
      {"lr_dtype", 4, ACL_FLOAT16, {1}, "lr"},
      {"lrPower_dtype", 7, ACL_BF16, {1}, "lrPower"},
      {"linear_shape", 2, ACL_FLOAT, {3, 2}, "linearRef"},
      {"grad_broadcast", 3, ACL_FLOAT, {1, 3}, "grad"},
      {"l1_two_elements", 5, ACL_FLOAT, {2}, "l1"},
      {"l2_empty", 6, ACL_FLOAT, {0}, "l2"},
  };
  std::vector<RejectionCase> rejections;
  for (const Bad& b : cases) {
    rejections.push_back({std::string("ApplyFtrl_") + b.name,
                          [b](A& a, W w, E e) {
                            aclTensor* t[8];
                            for (int k = 0; k < 8; ++k) t[k] = a.NewTensor(ACL_FLOAT, k < 4 ? Shape{2, 3} : Shape{1});
                            t[b.arg] = a.NewTensor(b.dtype, b.shape);
                            return aclnnApplyFtrlGetWorkspaceSize(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], false,
                                                                  w, e);
                          },
                          aclnnApplyFtrl, b.keyword});
  }
  return rejections;
}

class OptimRejects : public ::testing::TestWithParam<RejectionCase> {};

TEST_P(OptimRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(GradientDescent, OptimRejects, ::testing::ValuesIn(GradientDescentRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Ftrl, OptimRejects, ::testing::ValuesIn(FtrlRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
