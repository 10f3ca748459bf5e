// The reduction-engine ops added on top of ReduceSum (Prod, ProdDim,
// ReduceNansum, Any, All, Max, Min, Var, VarCorrection, VarMean, Std,
// StdMeanCorrection, LogSumExp, Aminmax, AminmaxDim, AminmaxAll) through the public C API: the calls of CANN's
// own example programs with their results, the two-output forms (VarMean,
// StdMeanCorrection, the Aminmax family) against a float64 reference on strided views, special
// values (NaN, infinities), and every rejection with its code. The harness
// rows (harness_reduce_test.cpp) sweep dtypes, views and shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_aminmax.h"
#include "aclnnop/aclnn_aminmax_all.h"
#include "aclnnop/aclnn_aminmax_dim.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_nansum.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

using Phase1 = std::function<aclnnStatus(OpArgs&, uint64_t*, aclOpExecutor**)>;

// f32 results within a few ulps of the float64 value.
Expected Close(const Values& values) {
  Expected want{values, {}};
  for (const Value& v : values) want.tolerance.push_back(std::isfinite(v.real()) ? 4 * 0x1p-24 * std::abs(v) : 0);
  return want;
}

// ---- CANN's example programs --------------------------------------------------------------------------

TEST(ReduceExamples, ProdAndProdDim) {
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView({0.1, 1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 7.1});
  DeviceTensor all(ACL_FLOAT, {1}), dim(ACL_FLOAT, {1, 2});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnProdGetWorkspaceSize(a.Tensor(self), ACL_FLOAT, a.Tensor(all), ws, e);
                  },
                  aclnnProd)
                  .ok());
  ExpectNear(all.ReadView(), Close({0.1 * 1.1 * 2.1 * 3.1 * 4.1 * 5.1 * 6.1 * 7.1}), "Prod");
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnProdDimGetWorkspaceSize(a.Tensor(self), 0, true, ACL_FLOAT, a.Tensor(dim), ws, e);
                  },
                  aclnnProdDim)
                  .ok());
  ExpectNear(dim.ReadView(), Close({0.1 * 2.1 * 4.1 * 6.1, 1.1 * 3.1 * 5.1 * 7.1}), "ProdDim");
}

TEST(ReduceExamples, ReduceNansum) {
  DeviceTensor self(ACL_FLOAT, {4, 2}), out(ACL_FLOAT, {2});
  self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnReduceNansumGetWorkspaceSize(a.Tensor(self), a.IntArray({0}), false, ACL_FLOAT,
                                                             a.Tensor(out), ws, e);
                  },
                  aclnnReduceNansum)
                  .ok());
  ExpectExact(out.ReadView(), {12.0, 16.0}, "ReduceNansum");
}

// Both example programs pass an INT32 self and a UINT8 out.
TEST(ReduceExamples, AnyAndAll) {
  for (const bool all : {false, true}) {
    DeviceTensor self(ACL_INT32, {4, 2}), out(ACL_UINT8, {1, 2});
    self.WriteView(all ? Values{0, 1, 2, 3, 4, 5, 6, 7} : Values{0, 1, 0, 3, 0, 5, 0, 7});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return (all ? aclnnAllGetWorkspaceSize : aclnnAnyGetWorkspaceSize)(a.Tensor(self), a.IntArray({0}), true,
                                                                             a.Tensor(out), ws, e);
        },
        all ? aclnnAll : aclnnAny);
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectExact(out.ReadView(), {0.0, 1.0}, all ? "All" : "Any");
  }
}

TEST(ReduceExamples, MaxAndMin) {
  for (const bool max : {true, false}) {
    DeviceTensor self(ACL_FLOAT, {3, 3}), out(ACL_FLOAT, {1});
    self.WriteView({1, 2, 3, 4, 5, 6, 7, 8, 9});
    ASSERT_TRUE(RunOp(
                    [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                      return (max ? aclnnMaxGetWorkspaceSize : aclnnMinGetWorkspaceSize)(a.Tensor(self), a.Tensor(out),
                                                                                         ws, e);
                    },
                    max ? aclnnMax : aclnnMin)
                    .ok());
    ExpectExact(out.ReadView(), {max ? 9.0 : 1.0}, max ? "Max" : "Min");
  }
}

// The population / sample variance of {0, 1.1, 2, 3} and {4, 5, 6, 7}.
double VarianceOf(const std::vector<double>& x, double correction) {
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  double squares = 0;
  for (double v : x) squares += (v - mean) * (v - mean);
  return squares / (static_cast<double>(x.size()) - correction);
}

TEST(ReduceExamples, VarVarCorrectionAndVarMean) {
  DeviceTensor self(ACL_FLOAT, {2, 4});
  self.WriteView({0.0, 1.1, 2, 3, 4, 5, 6, 7});
  const std::vector<double> a = {0.0, 1.1, 2, 3}, b = {4, 5, 6, 7};
  DeviceTensor var(ACL_FLOAT, {2, 1}), correction(ACL_FLOAT, {2, 1}), sample(ACL_FLOAT, {2, 1}),
      mean(ACL_FLOAT, {2, 1});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& x, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnVarGetWorkspaceSize(x.Tensor(self), x.IntArray({1}), false, true, x.Tensor(var), ws, e);
                  },
                  aclnnVar)
                  .ok());
  ExpectNear(var.ReadView(), Close({VarianceOf(a, 0), VarianceOf(b, 0)}), "Var");
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& x, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnVarCorrectionGetWorkspaceSize(x.Tensor(self), x.IntArray({1}), 0, true,
                                                              x.Tensor(correction), ws, e);
                  },
                  aclnnVarCorrection)
                  .ok());
  ExpectNear(correction.ReadView(), Close({VarianceOf(a, 0), VarianceOf(b, 0)}), "VarCorrection");
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& x, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnVarMeanGetWorkspaceSize(x.Tensor(self), x.IntArray({1}), 1, true, x.Tensor(sample),
                                                        x.Tensor(mean), ws, e);
                  },
                  aclnnVarMean)
                  .ok());
  ExpectNear(sample.ReadView(), Close({VarianceOf(a, 1), VarianceOf(b, 1)}), "VarMean var");
  ExpectNear(mean.ReadView(), Close({6.1 / 4, 5.5}), "VarMean mean");
}

TEST(ReduceExamples, StdAndStdMeanCorrection) {
  DeviceTensor self(ACL_FLOAT, {4, 2}), out(ACL_FLOAT, {2});
  self.WriteView({2, 3, 5, 8, 4, 12, 6, 7});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnStdGetWorkspaceSize(a.Tensor(self), a.IntArray({0}), 1, false, a.Tensor(out), ws, e);
                  },
                  aclnnStd)
                  .ok());
  ExpectNear(out.ReadView(), Close({std::sqrt(VarianceOf({2, 5, 4, 6}, 1)), std::sqrt(VarianceOf({3, 8, 12, 7}, 1))}),
             "Std");
  // [2, 3, 4] of 1..24 over dim 1: each column of each block is {c, c + 4, c + 8}, std 4, mean c + 4.
  DeviceTensor cube(ACL_FLOAT, {2, 3, 4}), std(ACL_FLOAT, {2, 4}), mean(ACL_FLOAT, {2, 4});
  Values values;
  for (int i = 1; i <= 24; ++i) values.push_back(i);
  cube.WriteView(values);
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnStdMeanCorrectionGetWorkspaceSize(a.Tensor(cube), a.IntArray({1}), 1, false,
                                                                  a.Tensor(std), a.Tensor(mean), ws, e);
                  },
                  aclnnStdMeanCorrection)
                  .ok());
  ExpectNear(std.ReadView(), Close(Values(8, 4.0)), "StdMeanCorrection std");
  ExpectNear(mean.ReadView(), Close({5, 6, 7, 8, 17, 18, 19, 20}), "StdMeanCorrection mean");
}

TEST(ReduceExamples, LogSumExp) {
  DeviceTensor self(ACL_FLOAT, {2, 2, 2}), out(ACL_FLOAT, {2});
  self.WriteView({2, 3, 5, 8, 4, 12, 6, 7});
  ASSERT_TRUE(
      RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnLogSumExpGetWorkspaceSize(a.Tensor(self), a.IntArray({1, 2}), false, a.Tensor(out), ws, e);
          },
          aclnnLogSumExp)
          .ok());
  const auto lse = [](std::vector<double> x) {
    double s = 0;
    for (double v : x) s += std::exp(v);
    return std::log(s);
  };
  ExpectNear(out.ReadView(), Close({lse({2, 3, 5, 8}), lse({4, 12, 6, 7})}), "LogSumExp");
}

// ---- VarMean and StdMeanCorrection against float64 ------------------------------------------------------

struct MeanCase {
  std::string name;
  bool root;  // StdMeanCorrection
  aclDataType self, out;
  Shape shape;
  std::vector<int64_t> dims;
  bool nullDim;
  int64_t correction;
  bool keepdim;
  View view = View::kContiguous;
  View outView = View::kContiguous;
};

void PrintTo(const MeanCase& c, std::ostream* os) { *os << c.name; }

class VarMeanTest : public ::testing::TestWithParam<MeanCase> {};

TEST_P(VarMeanTest, MatchesFloat64Reference) {
  const MeanCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.self, c.shape, c.view);
  const Values values = self.FillRandom(rng, Range{-3, 3});
  const size_t rank = c.shape.size();
  std::vector<bool> reduced(rank, c.nullDim || c.dims.empty());
  for (int64_t d : c.dims) reduced[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(rank) : d)] = true;
  Shape outShape;
  for (size_t d = 0; d < rank; ++d) {
    if (!reduced[d]) outShape.push_back(c.shape[d]);
    if (reduced[d] && c.keepdim) outShape.push_back(1);
  }
  DeviceTensor first(c.out, outShape, c.outView), mean(c.out, outShape, c.outView);
  first.Poison();
  mean.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        aclIntArray* dim = c.nullDim ? nullptr : a.IntArray(c.dims);
        return c.root ? aclnnStdMeanCorrectionGetWorkspaceSize(a.Tensor(self), dim, c.correction, c.keepdim,
                                                               a.Tensor(first), a.Tensor(mean), ws, e)
                      : aclnnVarMeanGetWorkspaceSize(a.Tensor(self), dim, c.correction, c.keepdim, a.Tensor(first),
                                                     a.Tensor(mean), ws, e);
      },
      c.root ? aclnnStdMeanCorrection : aclnnVarMean);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // Group the values by output (row-major over the kept dims).
  std::vector<std::vector<double>> groups(static_cast<size_t>(NumElements(outShape)));
  std::vector<int64_t> index(rank, 0);
  for (const Value& v : values) {
    int64_t o = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (!reduced[d]) o = o * c.shape[d] + index[d];
    }
    groups[static_cast<size_t>(o)].push_back(v.real());
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < c.shape[d]) break;
      index[d] = 0;
    }
  }
  Expected wantFirst, wantMean;
  const double u = UnitRoundoff(c.out) + 0x1p-24;
  for (const std::vector<double>& g : groups) {
    const auto n = static_cast<double>(g.size());
    double m = 0;
    for (double v : g) m += v;
    m /= n;
    double squares = 0;
    for (double v : g) squares += (v - m) * (v - m);
    const double var = squares / std::max(0.0, n - static_cast<double>(c.correction));
    const double result = c.root ? std::sqrt(var) : var;
    wantFirst.values.push_back(ConvertValue(result, c.out));
    wantFirst.tolerance.push_back(std::isfinite(result) ? 8 * u * std::abs(result) + 1e-6 : 0);
    wantMean.values.push_back(ConvertValue(m, c.out));
    wantMean.tolerance.push_back(std::isfinite(m) ? 4 * u * 3 + 2 * u * std::abs(m) : 0);
  }
  ExpectNear(first.ReadView(), wantFirst, c.root ? "stdOut" : "varOut");
  ExpectNear(mean.ReadView(), wantMean, "meanOut");
}

std::vector<MeanCase> MeanCases() {
  std::vector<MeanCase> cases;
  const View t = View::kTransposed, s = View::kStepped, r = View::kReversed, c = View::kContiguous;
  for (const bool root : {false, true}) {
    const std::string op = root ? "std_" : "var_";
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      const std::string n = op + Name(dtype) + "_";
      cases.push_back({n + "inner", root, dtype, dtype, {3, 4, 9}, {2}, false, 1, false});
      cases.push_back({n + "outer_keepdim", root, dtype, dtype, {9, 4, 3}, {0}, false, 0, true});
      cases.push_back({n + "negative_pair", root, dtype, dtype, {3, 9, 4}, {-1, 0}, false, 2, false});
      cases.push_back({n + "null_dim", root, dtype, dtype, {5, 6}, {}, true, 1, false});
      cases.push_back({n + "empty_list_keepdim", root, dtype, dtype, {5, 6}, {}, false, 1, true});
      cases.push_back({n + "transposed", root, dtype, dtype, {7, 9}, {0}, false, 1, false, t, r});
      cases.push_back({n + "stepped", root, dtype, dtype, {4, 6, 10}, {1}, false, 1, false, s, s});
      cases.push_back({n + "rank0", root, dtype, dtype, {}, {}, false, 0, false});
      cases.push_back({n + "empty_reduced", root, dtype, dtype, {0, 3}, {0}, false, 1, false});
      cases.push_back({n + "empty_kept", root, dtype, dtype, {0, 3}, {1}, false, 1, false});
    }
    cases.push_back({op + "f16_into_f32", root, ACL_FLOAT16, ACL_FLOAT, {40, 30}, {0}, false, 1, false});
    cases.push_back({op + "f32_large_outer", root, ACL_FLOAT, ACL_FLOAT, {300, 4100}, {0}, false, 1, false, c, c});
    cases.push_back({op + "f32_large_inner", root, ACL_FLOAT, ACL_FLOAT, {3, 70000}, {1}, false, 1, false});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, VarMeanTest, ::testing::ValuesIn(MeanCases()),
                         [](const ::testing::TestParamInfo<MeanCase>& info) { return SanitizeName(info.param.name); });

// ---- Aminmax, AminmaxDim, AminmaxAll --------------------------------------------------------------------

enum class MinMaxForm { kList, kDim, kAll };

struct MinMaxCase {
  std::string name;
  MinMaxForm form;
  aclDataType dtype;
  Shape shape;
  std::vector<int64_t> dims;  // kList: the list (empty: every dim); kDim: one dim; kAll: unused
  bool keepdim = false;
  View view = View::kContiguous;
  View outView = View::kContiguous;
};

void PrintTo(const MinMaxCase& c, std::ostream* os) { *os << c.name; }

class AminmaxTest : public ::testing::TestWithParam<MinMaxCase> {};

OpRun RunAminmax(const MinMaxCase& c, const DeviceTensor& self, const DeviceTensor& minOut,
                 const DeviceTensor& maxOut) {
  switch (c.form) {
    case MinMaxForm::kList:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnAminmaxGetWorkspaceSize(a.Tensor(self), a.IntArray(c.dims), c.keepdim, a.Tensor(minOut),
                                                a.Tensor(maxOut), ws, e);
          },
          aclnnAminmax);
    case MinMaxForm::kDim:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnAminmaxDimGetWorkspaceSize(a.Tensor(self), c.dims.at(0), c.keepdim, a.Tensor(minOut),
                                                   a.Tensor(maxOut), ws, e);
          },
          aclnnAminmaxDim);
    case MinMaxForm::kAll:
      break;
  }
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnAminmaxAllGetWorkspaceSize(a.Tensor(self), a.Tensor(minOut), a.Tensor(maxOut), ws, e);
      },
      aclnnAminmaxAll);
}

TEST_P(AminmaxTest, MatchesFloat64Reference) {
  const MinMaxCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.dtype, c.shape, c.view);
  const Range range = c.dtype == ACL_BOOL ? Range{0, 1} : (IsUnsigned(c.dtype) ? Range{0, 50} : Range{-50, 50});
  const Values values = self.FillRandom(rng, range);
  const size_t rank = c.shape.size();
  std::vector<bool> reduced(rank, c.form == MinMaxForm::kAll || c.dims.empty());
  for (int64_t d : c.dims) {
    if (rank > 0) reduced[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(rank) : d)] = true;
  }
  Shape outShape;
  for (size_t d = 0; d < rank; ++d) {
    if (!reduced[d]) outShape.push_back(c.shape[d]);
    if (reduced[d] && c.keepdim) outShape.push_back(1);
  }
  if (c.form == MinMaxForm::kAll) outShape = {1};  // CANN's one-element outputs
  DeviceTensor minOut(c.dtype, outShape, c.outView), maxOut(c.dtype, outShape, c.outView);
  minOut.Poison();
  maxOut.Poison();
  const std::vector<uint8_t> minBefore = minOut.DownloadBytes();
  const OpRun run = RunAminmax(c, self, minOut, maxOut);
  ASSERT_TRUE(run.ok()) << Describe(run);
  if (self.numel() == 0) {  // nothing computed
    ExpectOutsideViewUnchanged(minOut, minBefore, "minOut storage");
    return;
  }
  std::vector<std::vector<double>> groups(static_cast<size_t>(NumElements(outShape)));
  std::vector<int64_t> index(rank, 0);
  for (const Value& v : values) {
    int64_t o = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (!reduced[d]) o = o * c.shape[d] + index[d];
    }
    groups[static_cast<size_t>(o)].push_back(v.real());
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < c.shape[d]) break;
      index[d] = 0;
    }
  }
  Expected wantMin, wantMax;
  for (const std::vector<double>& g : groups) {
    wantMin.values.push_back(*std::min_element(g.begin(), g.end()));
    wantMax.values.push_back(*std::max_element(g.begin(), g.end()));
  }
  wantMin.tolerance.assign(groups.size(), 0);
  wantMax.tolerance.assign(groups.size(), 0);
  ExpectNear(minOut.ReadView(), wantMin, "minOut");
  ExpectNear(maxOut.ReadView(), wantMax, "maxOut");
  ExpectOutsideViewUnchanged(minOut, minBefore, "minOut storage");
}

std::vector<MinMaxCase> MinMaxCases() {
  std::vector<MinMaxCase> cases;
  const View t = View::kTransposed, s = View::kStepped, r = View::kReversed, c = View::kContiguous,
             b = View::kBroadcast;
  for (aclDataType dtype :
       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL}) {
    const std::string n = std::string(Name(dtype)) + "_";
    cases.push_back({n + "list_inner", MinMaxForm::kList, dtype, {3, 4, 9}, {2}});
    cases.push_back({n + "list_negative_pair_keepdim", MinMaxForm::kList, dtype, {5, 4, 6}, {-1, 0}, true, s, s});
    cases.push_back({n + "dim_outer_transposed", MinMaxForm::kDim, dtype, {9, 7}, {0}, false, t, r});
    cases.push_back({n + "all_stepped", MinMaxForm::kAll, dtype, {4, 6, 5}, {}, false, s});
  }
  cases.push_back({"f32_list_every_dim", MinMaxForm::kList, ACL_FLOAT, {6, 7}, {}, false});
  cases.push_back({"f32_list_broadcast", MinMaxForm::kList, ACL_FLOAT, {5, 6}, {1}, false, b});
  cases.push_back({"f32_dim_middle_keepdim", MinMaxForm::kDim, ACL_FLOAT, {3, 8, 4}, {-2}, true, c, s});
  cases.push_back({"f32_dim_large_outer", MinMaxForm::kDim, ACL_FLOAT, {3000, 17}, {0}});
  cases.push_back({"f32_all_large", MinMaxForm::kAll, ACL_FLOAT, {300, 257}, {}});
  cases.push_back({"f32_list_rank0", MinMaxForm::kList, ACL_FLOAT, {}, {0}});
  cases.push_back({"f32_dim_rank0", MinMaxForm::kDim, ACL_FLOAT, {}, {-1}, true});
  cases.push_back({"f32_all_rank0", MinMaxForm::kAll, ACL_FLOAT, {}, {}});
  cases.push_back({"f32_list_empty_kept", MinMaxForm::kList, ACL_FLOAT, {0, 4}, {1}});
  cases.push_back({"f32_dim_empty_kept", MinMaxForm::kDim, ACL_FLOAT, {0, 4}, {1}, true});
  cases.push_back({"f32_all_empty", MinMaxForm::kAll, ACL_FLOAT, {0, 4}, {}});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, AminmaxTest, ::testing::ValuesIn(MinMaxCases()),
                         [](const ::testing::TestParamInfo<MinMaxCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- Special values -------------------------------------------------------------------------------------

Values RunReduceOver(const Phase1& phase1, Phase2 phase2, const DeviceTensor& out) {
  const OpRun run = RunOp(phase1, phase2);
  EXPECT_TRUE(run.ok()) << Describe(run);
  return out.ReadView();
}

TEST(ReduceSpecialValues, NansumSkipsNanAndKeepsInfinities) {
  DeviceTensor self(ACL_FLOAT, {3, 3}), out(ACL_FLOAT, {3});
  self.WriteView({1, kNan, 2, kNan, kNan, kNan, kInf, kNan, 1});
  const Values got = RunReduceOver(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnReduceNansumGetWorkspaceSize(a.Tensor(self), a.IntArray({1}), false, ACL_FLOAT, a.Tensor(out), ws,
                                                 e);
      },
      aclnnReduceNansum, out);
  ExpectExact(got, {3.0, 0.0, kInf}, "rows");
}

TEST(ReduceSpecialValues, AnyAndAllCountNanAsNonZero) {
  DeviceTensor self(ACL_FLOAT, {3, 2}), out(ACL_BOOL, {3});
  self.WriteView({kNan, 0, 0, 0, kNan, kNan});
  for (const bool all : {false, true}) {
    const Values got = RunReduceOver(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return (all ? aclnnAllGetWorkspaceSize : aclnnAnyGetWorkspaceSize)(a.Tensor(self), a.IntArray({-1}), false,
                                                                             a.Tensor(out), ws, e);
        },
        all ? aclnnAll : aclnnAny, out);
    ExpectExact(got, all ? Values{0, 0, 1} : Values{1, 0, 1}, all ? "All" : "Any");
  }
  // A value far below f32's smallest normal is still non-zero in f64.
  DeviceTensor tiny(ACL_DOUBLE, {2}), one(ACL_BOOL, Shape{});
  tiny.WriteView({1e-300, 0});
  const Values got = RunReduceOver(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnAnyGetWorkspaceSize(a.Tensor(tiny), a.IntArray({}), false, a.Tensor(one), ws, e);
      },
      aclnnAny, one);
  ExpectExact(got, {1.0}, "tiny f64");
}

TEST(ReduceSpecialValues, MaxMinPropagateNan) {
  DeviceTensor self(ACL_FLOAT, {4}), out(ACL_FLOAT, {1});
  self.WriteView({1, kNan, -kInf, 5});
  for (const bool max : {true, false}) {
    const Values got = RunReduceOver(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return (max ? aclnnMaxGetWorkspaceSize : aclnnMinGetWorkspaceSize)(a.Tensor(self), a.Tensor(out), ws, e);
        },
        max ? aclnnMax : aclnnMin, out);
    EXPECT_TRUE(std::isnan(got[0].real())) << (max ? "Max" : "Min");
  }
}

TEST(ReduceSpecialValues, AminmaxPropagatesNan) {
  DeviceTensor self(ACL_FLOAT, {2, 3}), minOut(ACL_FLOAT, {2}), maxOut(ACL_FLOAT, {2});
  self.WriteView({1, kNan, -3, 4, -kInf, 2});
  const MinMaxCase c{"nan", MinMaxForm::kDim, ACL_FLOAT, {2, 3}, {1}};
  ASSERT_TRUE(RunAminmax(c, self, minOut, maxOut).ok());
  const Values min = minOut.ReadView(), max = maxOut.ReadView();
  EXPECT_TRUE(std::isnan(min[0].real()));
  EXPECT_TRUE(std::isnan(max[0].real()));
  EXPECT_EQ(min[1].real(), -kInf);
  EXPECT_EQ(max[1].real(), 4);
}

TEST(ReduceSpecialValues, LogSumExpOfInfinitiesAndLargeValues) {
  DeviceTensor self(ACL_FLOAT, {4, 3}), out(ACL_FLOAT, {4});
  // No overflow at 1000; a row of -inf is -inf; a +inf makes +inf; a NaN makes NaN.
  self.WriteView({1000, 1000, 999, -kInf, -kInf, -kInf, 1, kInf, 2, 1, kNan, 2});
  const Values got = RunReduceOver(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnLogSumExpGetWorkspaceSize(a.Tensor(self), a.IntArray({1}), false, a.Tensor(out), ws, e);
      },
      aclnnLogSumExp, out);
  const double first = 1000 + std::log(2 + std::exp(-1.0));
  ExpectNear(got, Expected{{first, -kInf, kInf, kNan}, {4 * 0x1p-24 * first, 0, 0, 0}}, "rows");
}

TEST(ReduceSpecialValues, VarianceOfOneElementUnbiasedIsNan) {
  DeviceTensor self(ACL_FLOAT, {3, 1}), out(ACL_FLOAT, {3});
  self.WriteView({1, 2, 3});
  const Values got = RunReduceOver(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnVarGetWorkspaceSize(a.Tensor(self), a.IntArray({1}), true, false, a.Tensor(out), ws, e);
      },
      aclnnVar, out);
  for (const Value& v : got) EXPECT_TRUE(std::isnan(v.real()));
}

// Constant rows of large values have variance 0: accumulated in f32, the mean
// came out one ulp from 1e30 and the squared deviations overflowed (inf). A
// variance that is itself past f32 is still inf.
TEST(ReduceSpecialValues, VarianceOfLargeConstantRowsIsZero) {
  DeviceTensor self(ACL_FLOAT, {3, 3}), out(ACL_FLOAT, {3}), mean(ACL_FLOAT, {3});
  self.WriteView({1e30, 1e30, 1e30, -3e37, -3e37, -3e37, -1e30, 1e30, 0});
  const Values got = RunReduceOver(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnVarMeanGetWorkspaceSize(a.Tensor(self), a.IntArray({1}), 0, false, a.Tensor(out), a.Tensor(mean),
                                            ws, e);
      },
      aclnnVarMean, out);
  ExpectExact(got, {0, 0, kInf}, "variance");
  ExpectExact(mean.ReadView(), {static_cast<double>(1e30f), static_cast<double>(-3e37f), 0}, "mean");
}

TEST(ReduceSpecialValues, ProdOfEmptyIsOneAndIntegersWrap) {
  DeviceTensor empty(ACL_FLOAT, {0, 3}), ones(ACL_FLOAT, {3});
  ones.Poison();
  ExpectExact(RunReduceOver(
                  [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnProdDimGetWorkspaceSize(a.Tensor(empty), 0, false, ACL_FLOAT, a.Tensor(ones), ws, e);
                  },
                  aclnnProdDim, ones),
              {1.0, 1.0, 1.0}, "empty product");
  DeviceTensor self(ACL_INT8, {8}), out(ACL_INT8, {1});
  self.WriteView({2, 2, 2, 2, 2, 2, 2, 3});  // 384 wraps to -128
  ExpectExact(RunReduceOver(
                  [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                    return aclnnProdGetWorkspaceSize(a.Tensor(self), ACL_INT8, a.Tensor(out), ws, e);
                  },
                  aclnnProd, out),
              {-128.0}, "wrapping int8 product");
}

// ---- Rejections ------------------------------------------------------------------------------------------

struct Rejection {
  const char* name;
  Phase1 phase1;
  const char* keyword;  // in the message
};

TEST(ReduceRejections, AreInvalidArguments) {
  DeviceTensor f32(ACL_FLOAT, {2, 3}), f32Row(ACL_FLOAT, {3}), f32One(ACL_FLOAT, {1}), f64(ACL_DOUBLE, {2, 3}),
      c64(ACL_COMPLEX64, {2, 3}), s32(ACL_INT32, {2, 3}), s32Row(ACL_INT32, {3}), boolRow(ACL_BOOL, {3}),
      f32Col(ACL_FLOAT, {2}), empty(ACL_FLOAT, {0, 3}), c64One(ACL_COMPLEX64, {1}), s64One(ACL_INT64, {1}),
      f64Row(ACL_DOUBLE, {3}), f16One(ACL_FLOAT16, {1}), c64Row(ACL_COMPLEX64, {3});
  const std::vector<Rejection> cases = {
      {"prod dtype differs from out",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnProdGetWorkspaceSize(a.Tensor(f32), ACL_DOUBLE, a.Tensor(f32One), ws, e);
       },
       "dtype"},
      {"prod complex into real",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnProdGetWorkspaceSize(a.Tensor(c64), ACL_FLOAT, a.Tensor(f32One), ws, e);
       },
       "dtype"},
      {"prod out shape",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnProdGetWorkspaceSize(a.Tensor(f32), ACL_FLOAT, a.Tensor(f32Row), ws, e);
       },
       "out"},
      {"prod empty into complex",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnProdGetWorkspaceSize(a.Tensor(empty), ACL_COMPLEX64, a.Tensor(c64One), ws, e);
       },
       "complex"},
      {"proddim dim",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnProdDimGetWorkspaceSize(a.Tensor(f32), 2, false, ACL_FLOAT, a.Tensor(f32Row), ws, e);
       },
       "dim"},
      {"proddim dtype not a dtype",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnProdDimGetWorkspaceSize(a.Tensor(f32), 0, false, static_cast<aclDataType>(999), a.Tensor(f32Row),
                                             ws, e);
       },
       "dtype"},
      {"nansum f64 self",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnReduceNansumGetWorkspaceSize(a.Tensor(f64), a.IntArray({0}), false, ACL_FLOAT, a.Tensor(f32Row),
                                                  ws, e);
       },
       "self"},
      {"nansum dtype differs from out",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnReduceNansumGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), false, ACL_FLOAT16, a.Tensor(f32Row),
                                                  ws, e);
       },
       "dtype"},
      {"nansum float into int",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnReduceNansumGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), false, ACL_INT32, a.Tensor(s32Row),
                                                  ws, e);
       },
       "out"},
      {"nansum duplicate dims",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnReduceNansumGetWorkspaceSize(a.Tensor(f32), a.IntArray({0, -2}), false, ACL_FLOAT,
                                                  a.Tensor(f32Row), ws, e);
       },
       "more than once"},
      {"any f32 out",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAnyGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), false, a.Tensor(f32Row), ws, e);
       },
       "out"},
      {"all complex self",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAllGetWorkspaceSize(a.Tensor(c64), a.IntArray({0}), false, a.Tensor(boolRow), ws, e);
       },
       "self"},
      {"all dim out of range",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAllGetWorkspaceSize(a.Tensor(s32), a.IntArray({-3}), false, a.Tensor(boolRow), ws, e);
       },
       "dim"},
      {"max of nothing",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnMaxGetWorkspaceSize(a.Tensor(empty), a.Tensor(f32One), ws, e);
       },
       "nothing"},
      {"max out of two elements",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnMaxGetWorkspaceSize(a.Tensor(f32), a.Tensor(f32Col), ws, e);
       },
       "out"},
      {"max complex self",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnMaxGetWorkspaceSize(a.Tensor(c64), a.Tensor(f32One), ws, e);
       },
       "self"},
      {"min out of another dtype",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnMinGetWorkspaceSize(a.Tensor(f32), a.Tensor(s64One), ws, e);
       },
       "out"},
      {"var f64 self",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnVarGetWorkspaceSize(a.Tensor(f64), a.IntArray({0}), true, false, a.Tensor(f64Row), ws, e);
       },
       "self"},
      {"var duplicate dims",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnVarGetWorkspaceSize(a.Tensor(f32), a.IntArray({1, 1}), true, false, a.Tensor(f32Col), ws, e);
       },
       "more than once"},
      {"varcorrection out shape",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnVarCorrectionGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), 1, false, a.Tensor(f32Col), ws, e);
       },
       "out"},
      {"varmean meanOut shape",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnVarMeanGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), 1, false, a.Tensor(f32Row),
                                             a.Tensor(f32Col), ws, e);
       },
       "meanOut"},
      {"varmean meanOut dtype",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnVarMeanGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), 1, false, a.Tensor(f32Row),
                                             a.Tensor(f64Row), ws, e);
       },
       "meanOut"},
      {"std s32 out",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnStdGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), 1, false, a.Tensor(s32Row), ws, e);
       },
       "out"},
      {"stdmeancorrection stdOut shape",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnStdMeanCorrectionGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), 1, true, a.Tensor(f32Row),
                                                       a.Tensor(f32Row), ws, e);
       },
       "stdOut"},
      {"logsumexp f64 self",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnLogSumExpGetWorkspaceSize(a.Tensor(f64), a.IntArray({0}), false, a.Tensor(f32Row), ws, e);
       },
       "self"},
      {"logsumexp s32 out",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnLogSumExpGetWorkspaceSize(a.Tensor(s32), a.IntArray({0}), false, a.Tensor(s32Row), ws, e);
       },
       "out"},
      {"logsumexp dim",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnLogSumExpGetWorkspaceSize(a.Tensor(f32), a.IntArray({2}), false, a.Tensor(f16One), ws, e);
       },
       "dim"},
      {"aminmax c64 self",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxGetWorkspaceSize(a.Tensor(c64), a.IntArray({0}), false, a.Tensor(c64Row), a.Tensor(c64Row),
                                             ws, e);
       },
       "self"},
      {"aminmax minOut dtype",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), false, a.Tensor(f64Row), a.Tensor(f32Row),
                                             ws, e);
       },
       "minOut"},
      {"aminmax maxOut dtype",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), false, a.Tensor(f32Row), a.Tensor(f64Row),
                                             ws, e);
       },
       "maxOut"},
      {"aminmax dim",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxGetWorkspaceSize(a.Tensor(f32), a.IntArray({2}), false, a.Tensor(f32Row), a.Tensor(f32Row),
                                             ws, e);
       },
       "dim"},
      {"aminmax maxOut shape",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxGetWorkspaceSize(a.Tensor(f32), a.IntArray({0}), false, a.Tensor(f32Row), a.Tensor(f32Col),
                                             ws, e);
       },
       "maxOut"},
      {"aminmax empty reduced dim",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxGetWorkspaceSize(a.Tensor(empty), a.IntArray({0}), false, a.Tensor(f32Row),
                                             a.Tensor(f32Row), ws, e);
       },
       "extent 0"},
      {"aminmax empty self, every dim",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxGetWorkspaceSize(a.Tensor(empty), a.IntArray({}), false, a.Tensor(f32One), a.Tensor(f32One),
                                             ws, e);
       },
       "empty"},
      {"aminmaxdim dim",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxDimGetWorkspaceSize(a.Tensor(f32), -3, false, a.Tensor(f32Row), a.Tensor(f32Row), ws, e);
       },
       "dim"},
      {"aminmaxdim empty dim",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxDimGetWorkspaceSize(a.Tensor(empty), 0, false, a.Tensor(f32Row), a.Tensor(f32Row), ws, e);
       },
       "extent 0"},
      {"aminmaxdim keepdim shape",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxDimGetWorkspaceSize(a.Tensor(f32), 0, true, a.Tensor(f32Row), a.Tensor(f32Row), ws, e);
       },
       "minOut"},
      {"aminmaxall s32 minOut",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxAllGetWorkspaceSize(a.Tensor(f32), a.Tensor(s64One), a.Tensor(f32One), ws, e);
       },
       "minOut"},
      {"aminmaxall out shape",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnAminmaxAllGetWorkspaceSize(a.Tensor(f32), a.Tensor(f32One), a.Tensor(f32Row), ws, e);
       },
       "maxOut"},
  };
  for (const Rejection& c : cases) {
    const OpRun run = RunOp(c.phase1, aclnnProd);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << c.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(c.keyword), std::string::npos) << c.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
