// Histc and Bincount as harness rows against float64 references: every A2
// dtype of self (and of Bincount's weights and out), the views, rank 0 to 8
// and empty selves, an explicit range, the data's own range and integer
// ranges (exact bin edges); then CANN's examples and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_bincount.h"
#include "aclnnop/aclnn_histc.h"
#include "harness/harness.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// ---- Histc --------------------------------------------------------------------------------------

Expected HistcReference(const RefCall& call) {
  const Operand& self = call.inputs[0];
  const int64_t bins = call.attrs.Int("bins");
  const double min = call.attrs.Scalar("min").value.real(), max = call.attrs.Scalar("max").value.real();
  const bool integral = !IsFloating(self.dtype);
  double lo = integral ? std::trunc(min) : static_cast<float>(min);
  double hi = integral ? std::trunc(max) : static_cast<float>(max);
  if (integral ? lo == hi : std::abs(hi - lo) < 1e-6) {
    lo = std::numeric_limits<double>::infinity();
    hi = -lo;
    for (const Value& v : self.values) {
      lo = std::min(lo, v.real());
      hi = std::max(hi, v.real());
    }
    if (lo == hi) {
      lo -= 1;
      hi += 1;
    }
  }
  Values counts(static_cast<size_t>(bins), 0.0);
  for (const Value& v : self.values) {
    const double x = v.real();
    if (!(x >= lo && x <= hi)) continue;
    const auto bin = std::min(bins - 1, static_cast<int64_t>((x - lo) * static_cast<double>(bins) / (hi - lo)));
    counts[static_cast<size_t>(bin)] += 1;
  }
  return Expected{counts, {}};
}

OpRow HistcRow() {
  OpRow row;
  row.name = "Histc";
  row.inputs = {Arg{.name = "self", .range = RangeRule([](aclDataType dtype, const CaseInfo&) {
                                      return IsFloating(dtype) ? Range{-3, 3} : Range{-3, 12, 0, 0, true};
                                    })}};
  row.out = {[](Call& c) {
               return aclnnHistcGetWorkspaceSize(c.Tensor(0), c.IntAttr("bins"), c.ScalarAttr("min"),
                                                 c.ScalarAttr("max"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnHistc};
  // Integer counts go into INT32 (an INT8 out would overflow on the large shape); floats count in their own dtype.
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_FLOAT16}), {{{ACL_INT64}, ACL_INT32},
                                                            {{ACL_INT32}, ACL_INT32},
                                                            {{ACL_INT16}, ACL_INT64},
                                                            {{ACL_INT8}, ACL_INT32},
                                                            {{ACL_UINT8}, ACL_INT16},
                                                            {{ACL_FLOAT}, ACL_INT32}});
  row.shapes = {{"typical", {{4, 5}}, true},
                {"large", {{67, 131}}, true},
                {"rank0", {Shape{}}},
                {"rank8", {{2, 1, 2, 1, 2, 1, 2, 3}}},
                {"empty", {{0, 3}}}};
  row.attrs = {
      {"range", {{"bins", int64_t{5}}, {"min", ScalarAttr{ACL_FLOAT, -2}}, {"max", ScalarAttr{ACL_FLOAT, 2.5}}}},
      {"data_range", {{"bins", int64_t{7}}, {"min", ScalarAttr{ACL_INT32, 0}}, {"max", ScalarAttr{ACL_INT32, 0}}}},
      {"int_edges", {{"bins", int64_t{4}}, {"min", ScalarAttr{ACL_INT64, 0}}, {"max", ScalarAttr{ACL_INT64, 10}}}},
      {"one_bin", {{"bins", int64_t{1}}, {"min", ScalarAttr{ACL_DOUBLE, -1}}, {"max", ScalarAttr{ACL_DOUBLE, 1}}}}};
  row.outShape = [](const std::vector<Shape>&, const AttrSet& a) -> std::optional<Shape> {
    return Shape{a.Int("bins")};
  };
  row.reference = HistcReference;
  return row;
}

// ---- Bincount -----------------------------------------------------------------------------------

Expected BincountReference(const RefCall& call) {
  const bool weighted = call.attrs.Bool("weighted");
  const Operand& self = call.inputs[0];
  const Operand& weights = call.inputs[1];
  const auto size = static_cast<size_t>(call.outShape[0]);
  Expected e{Values(size, 0.0), std::vector<double>(size, 0.0)};
  std::vector<double> magnitude(size, 0.0);
  for (size_t i = 0; i < self.values.size(); ++i) {
    const auto v = static_cast<size_t>(self.values[i].real());
    const double w = weighted ? weights.values[i].real() : 1.0;
    e.values[v] += w;
    magnitude[v] += std::abs(w);
  }
  // FLOAT weights sum in FLOAT: roundoff grows with the terms.
  const double u = weighted && weights.dtype == ACL_FLOAT ? 0x1p-24 : 0x1p-53;
  for (size_t v = 0; v < size; ++v) {
    e.values[v] = ConvertValue(e.values[v], call.out);
    e.tolerance[v] = u * magnitude[v] * static_cast<double>(self.values.size()) +
                     (IsFloating(call.out) ? UnitRoundoff(call.out) * std::abs(e.values[v].real()) : 0.0);
  }
  return e;
}

OpRow BincountRow() {
  OpRow row;
  row.name = "Bincount";
  row.inputs = {Arg{.name = "self",
                    .range = RangeRule([](aclDataType, const CaseInfo& c) {
                      return Range{0, static_cast<double>(c.attrs.Int("size") - 1), 0, 0, true};
                    }),
                    .dtypes = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}},
                Arg{.name = "weights", .range = Range{-4, 4}}};
  row.out = {[](Call& c) {
               return aclnnBincountGetWorkspaceSize(c.Tensor(0), c.BoolAttr("weighted") ? c.Tensor(1) : nullptr,
                                                    c.IntAttr("minlength"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnBincount};
  row.dtypes = {{{ACL_FLOAT}, ACL_FLOAT}, {{ACL_DOUBLE}, ACL_DOUBLE}, {{ACL_FLOAT16}, ACL_DOUBLE},
                {{ACL_INT32}, ACL_INT32}, {{ACL_INT64}, ACL_INT64},   {{ACL_INT8}, ACL_INT64},
                {{ACL_INT16}, ACL_FLOAT}, {{ACL_UINT8}, ACL_INT32},   {{ACL_BOOL}, ACL_DOUBLE}};
  row.shapes = {{"typical", {{7}, {7}}, true}, {"large", {{5003}, {5003}}, true}, {"empty", {{0}, {0}}}};
  row.attrs = {{"counts", {{"weighted", false}, {"minlength", int64_t{0}}, {"size", int64_t{6}}}},
               {"weighted", {{"weighted", true}, {"minlength", int64_t{3}}, {"size", int64_t{9}}}},
               {"minlength", {{"weighted", true}, {"minlength", int64_t{5}}, {"size", int64_t{5}}}}};
  row.outShape = [](const std::vector<Shape>&, const AttrSet& a) -> std::optional<Shape> {
    return Shape{a.Int("size")};
  };
  row.reference = BincountReference;
  return row;
}

std::vector<OpRow> HistcBincountRows() { return {HistcRow(), BincountRow()}; }
CANOPY_HARNESS_ROWS(HistcBincountRows);

// ---- CANN's examples and the rejections -----------------------------------------------------------

TEST(HistcExample, CannValues) {
  // CANN's example: FLOAT [3, 3] of 1..9, bins 3, FLOAT min 1 and max 9.
  auto self = Upload(ACL_FLOAT, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto out = Poisoned(ACL_FLOAT, {3});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnHistcGetWorkspaceSize(args.Tensor(*self), 3, args.Scalar(ACL_FLOAT, 1), args.Scalar(ACL_FLOAT, 9),
                                          args.Tensor(*out), ws, ex);
      },
      aclnnHistc);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), {3, 3, 3}, "histc");
}

OpRun RunHistc(aclDataType self, aclDataType out, const Shape& outShape, int64_t bins, double min, double max) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnHistcGetWorkspaceSize(args.NewTensor(self, {2, 3}), bins, args.Scalar(ACL_FLOAT, min),
                                          args.Scalar(ACL_FLOAT, max), args.NewTensor(out, outShape), ws, ex);
      },
      aclnnHistc);
}

TEST(HistcRejects, WithCannCodes) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(RunHistc(ACL_FLOAT, ACL_FLOAT, {4}, 4, 0, 1).ok());
  EXPECT_TRUE(RunHistc(ACL_FLOAT, ACL_FLOAT, {4}, 4, inf, inf).ok());  // the same infinity: the data's range
  EXPECT_EQ(RunHistc(ACL_DOUBLE, ACL_FLOAT, {4}, 4, 0, 1).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunHistc(ACL_BF16, ACL_BF16, {4}, 4, 0, 1).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunHistc(ACL_FLOAT, ACL_DOUBLE, {4}, 4, 0, 1).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunHistc(ACL_INT32, ACL_FLOAT, {4}, 4, 0, 1).phase1, ACLNN_ERR_PARAM_INVALID);  // FLOAT out to INT32
  EXPECT_EQ(RunHistc(ACL_FLOAT, ACL_FLOAT, {4}, 4, 0, inf).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunHistc(ACL_FLOAT, ACL_FLOAT, {4}, 4, std::nan(""), 1).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunHistc(ACL_FLOAT, ACL_FLOAT, {4}, 0, 0, 1).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunHistc(ACL_FLOAT, ACL_FLOAT, {4}, 4, 2, 1).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunHistc(ACL_FLOAT, ACL_FLOAT, {2, 2}, 4, 0, 1).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunHistc(ACL_FLOAT, ACL_FLOAT, {5}, 4, 0, 1).phase1, ACLNN_ERR_PARAM_INVALID);
}

// min == max takes the data's range, which must be finite (PyTorch: "range of
// [lo, hi] is not finite"): an infinity or NaN in the data fails the run with
// a message, out untouched. An adversarial pass found such data binned through
// an undefined conversion of an infinite quotient (everything in bin 0).
TEST(HistcDataRange, NonFiniteDataFailsTheRun) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (const Values& data : {Values{1, 2, inf, 4}, Values{-inf, 1, 2, 3}, Values{1, 2, nan, 4}}) {
    auto self = Upload(ACL_FLOAT, {4}, data);
    auto out = Poisoned(ACL_FLOAT, {4});
    const std::vector<uint8_t> before = out->DownloadBytes();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnHistcGetWorkspaceSize(args.Tensor(*self), 4, args.Scalar(ACL_FLOAT, 0), args.Scalar(ACL_FLOAT, 0),
                                            args.Tensor(*out), ws, ex);
        },
        aclnnHistc);
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_NE(run.message.find("not finite"), std::string::npos) << run.message;
    EXPECT_EQ(out->DownloadBytes(), before) << "out must stay as it was";
  }
  // An explicit range leaves NaN uncounted, as before.
  auto self = Upload(ACL_FLOAT, {4}, {1, 2, nan, 4});
  auto out = Poisoned(ACL_FLOAT, {4});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnHistcGetWorkspaceSize(args.Tensor(*self), 4, args.Scalar(ACL_FLOAT, 0), args.Scalar(ACL_FLOAT, 4),
                                          args.Tensor(*out), ws, ex);
      },
      aclnnHistc);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), {0, 1, 1, 1}, "explicit range");
}

TEST(BincountExample, CannValues) {
  // CANN's example: INT32 self [8, 1, .., 7] with FLOAT weights, minlength 0, FLOAT out [9].
  auto self = Upload(ACL_INT32, {8}, {8, 1, 2, 3, 4, 5, 6, 7});
  auto weights = Upload(ACL_FLOAT, {8}, {1, 1, 1.1, 2, 2, 2, 3, 3});
  auto out = Poisoned(ACL_FLOAT, {9});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnBincountGetWorkspaceSize(args.Tensor(*self), args.Tensor(*weights), 0, args.Tensor(*out), ws, ex);
      },
      aclnnBincount);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), {0, 1, ConvertValue(1.1, ACL_FLOAT), 2, 2, 2, 3, 3, 1}, "bincount");
}

OpRun RunBincount(aclDataType self, const Shape& selfShape, std::optional<aclDataType> weights,
                  const Shape& weightsShape, int64_t minlength, aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnBincountGetWorkspaceSize(args.NewTensorIn(Range{0, 2, 0, 0, true}, self, selfShape),
                                             weights ? args.NewTensor(*weights, weightsShape) : nullptr, minlength,
                                             args.NewTensor(out, outShape), ws, ex);
      },
      aclnnBincount);
}

TEST(BincountRejects, WithCannCodes) {
  EXPECT_TRUE(RunBincount(ACL_INT32, {4}, std::nullopt, {}, 0, ACL_INT64, {3}).ok());
  EXPECT_TRUE(RunBincount(ACL_INT32, {0}, std::nullopt, {}, 0, ACL_INT64, {0}).ok());
  EXPECT_EQ(RunBincount(ACL_FLOAT, {4}, std::nullopt, {}, 0, ACL_INT64, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunBincount(ACL_BOOL, {4}, std::nullopt, {}, 0, ACL_INT64, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunBincount(ACL_INT32, {4}, std::nullopt, {}, 0, ACL_FLOAT16, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunBincount(ACL_INT32, {4}, ACL_BF16, {4}, 0, ACL_FLOAT, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunBincount(ACL_INT32, {2, 2}, std::nullopt, {}, 0, ACL_INT64, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunBincount(ACL_INT32, {4}, ACL_FLOAT, {5}, 0, ACL_FLOAT, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunBincount(ACL_INT32, {4}, std::nullopt, {}, 5, ACL_INT64, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace canopy_test
