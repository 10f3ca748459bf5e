// The row operations' vector paths (kernels/reduce_rows.h) through the public C
// API against float64 references: Softmax and LogSoftmax over rows of every
// vector tail length and over rows long enough to split into chunks (a chunk of
// -inf only, NaN and +inf in a later chunk, a row of -inf), and LayerNorm and
// RmsNorm over long rows whose chunks have different means. The suites run at
// the machine's best instruction set, capped at AVX2 and with every feature off.
// Outputs far larger than the caches are stored past them (checked here with
// every output streamed, CANOPY_STREAM_OUTPUT_BYTES=0).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kF32Roundoff = 0x1p-24;

OpRun RunSoftmax(bool log, const DeviceTensor& self, const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return log ? aclnnLogSoftmaxGetWorkspaceSize(args.Tensor(self), -1, args.Tensor(out), workspaceSize, executor)
                   : aclnnSoftmaxGetWorkspaceSize(args.Tensor(self), -1, args.Tensor(out), workspaceSize, executor);
      },
      log ? aclnnLogSoftmax : aclnnSoftmax);
}

// Softmax over the last dim of [rows, cols] in float64, with a tolerance for an
// f32 computation rounded into `out` (as reduce_test's reference).
Expected SoftmaxRows(bool log, const Values& values, int64_t rows, int64_t cols, aclDataType out) {
  Expected want;
  want.values.resize(values.size());
  want.tolerance.resize(values.size());
  for (int64_t r = 0; r < rows; ++r) {
    const auto at = [&](int64_t j) { return static_cast<size_t>(r * cols + j); };
    double max = -kInf;
    bool nan = false;
    for (int64_t j = 0; j < cols; ++j) {
      nan |= std::isnan(values[at(j)].real());
      max = std::max(max, values[at(j)].real());
    }
    double sum = 0;
    for (int64_t j = 0; j < cols; ++j) sum += std::exp(values[at(j)].real() - max);
    for (int64_t j = 0; j < cols; ++j) {
      const double x = values[at(j)].real() - max;
      double v = log ? x - std::log(sum) : std::exp(x) / sum;
      if (nan) v = std::numeric_limits<double>::quiet_NaN();
      want.values[at(j)] = ConvertValue(v, out);
      want.tolerance[at(j)] =
          std::isfinite(v) ? 4 * UnitRoundoff(out) * std::abs(v) + 16 * kF32Roundoff * (1 + std::abs(x) + std::abs(v))
                           : 0;
    }
  }
  return want;
}

struct SoftmaxRowsCase {
  std::string name;
  bool log;
  aclDataType dtype;
  int64_t rows, cols;
  Range range{-12, 12};
};

void PrintTo(const SoftmaxRowsCase& c, std::ostream* os) { *os << c.name; }

std::vector<SoftmaxRowsCase> SoftmaxRowsCases() {
  std::vector<SoftmaxRowsCase> cases;
  for (const bool log : {false, true}) {
    for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      const std::string n = std::string(log ? "logsoftmax_" : "softmax_") + Name(dtype) + "_";
      // Every tail of a 16-lane vector, and two vectors and a tail.
      for (const int64_t cols : {1, 2, 7, 15, 16, 17, 31, 32, 33, 47}) {
        cases.push_back({n + "cols_" + std::to_string(cols), log, dtype, 3, cols});
      }
      // Rows of one chunk exactly, one past it, and several chunks with a short last one.
      cases.push_back({n + "one_chunk", log, dtype, 2, 32768});
      cases.push_back({n + "chunk_plus_one", log, dtype, 2, 32769});
      cases.push_back({n + "three_rows_of_four_chunks", log, dtype, 3, 100003});
      cases.push_back({n + "one_long_row", log, dtype, 1, 300001});
      // Rows over a MiB in every dtype, one for each thread of two.
      cases.push_back({n + "two_rows_over_a_mib", log, dtype, 2, 540001});
      // Scores in the hundreds: every term is taken relative to a large max.
      cases.push_back({n + "scores_near_300", log, dtype, 4, 1000, Range{288, 312}});
    }
  }
  return cases;
}

class SoftmaxRowsTest : public ::testing::TestWithParam<SoftmaxRowsCase> {};

TEST_P(SoftmaxRowsTest, MatchesFloat64Reference) {
  const SoftmaxRowsCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.dtype, {c.rows, c.cols});
  // A wide range: the terms span many binades, so a sum or a scale taken wrongly shows.
  const Values values = self.FillRandom(rng, c.range);
  DeviceTensor out(c.dtype, {c.rows, c.cols});
  out.Poison();
  const OpRun run = RunSoftmax(c.log, self, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(), SoftmaxRows(c.log, values, c.rows, c.cols, c.dtype), c.name);
}

INSTANTIATE_TEST_SUITE_P(Cases, SoftmaxRowsTest, ::testing::ValuesIn(SoftmaxRowsCases()),
                         [](const ::testing::TestParamInfo<SoftmaxRowsCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// Long rows (several chunks) holding special values: a whole chunk of -inf in
// an otherwise finite row (its results are 0, and -inf for log-softmax), a NaN
// or a +inf in a late chunk (the row becomes NaN, as in PyTorch), and a row of
// -inf only (NaN).
TEST(SoftmaxRows, SpecialValuesInLongRows) {
  constexpr int64_t kCols = 70000;
  for (const bool log : {false, true}) {
    for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      const std::string what = std::string(log ? "logsoftmax " : "softmax ") + Name(dtype);
      Rng rng = Rng::ForCurrentTest();
      Values values = RandomValues(rng, dtype, 4 * kCols, Range{-4, 4});
      for (int64_t j = 32768; j < 65536; ++j) values[static_cast<size_t>(j)] = -kInf;          // row 0
      values[static_cast<size_t>(kCols + 69000)] = std::numeric_limits<double>::quiet_NaN();   // row 1
      values[static_cast<size_t>(2 * kCols + 66000)] = kInf;                                   // row 2
      for (int64_t j = 0; j < kCols; ++j) values[static_cast<size_t>(3 * kCols + j)] = -kInf;  // row 3
      const auto self = Upload(dtype, {4, kCols}, values);
      DeviceTensor out(dtype, {4, kCols});
      out.Poison();
      const OpRun run = RunSoftmax(log, *self, out);
      ASSERT_TRUE(run.ok()) << what << ": " << Describe(run);
      // The reference handles row 0 (exp(-inf) is 0); rows 1-3 are NaN throughout (inf - inf, NaN).
      Expected want = SoftmaxRows(log, values, 4, kCols, dtype);
      for (int64_t i = kCols; i < 4 * kCols; ++i) {
        want.values[static_cast<size_t>(i)] = std::numeric_limits<double>::quiet_NaN();
        want.tolerance[static_cast<size_t>(i)] = 0;
      }
      ExpectNear(out.ReadView(), want, what);
    }
  }
}

// 16-bit results below f32's normal range are rounded, not flushed to zero (the
// AVX-512 BF16 rounding instruction reads f32 subnormals as zero, so those
// vectors round in integer arithmetic): softmax of a row whose other elements
// lie 84.5-99.5 below its max, so that their terms fall through the subnormals.
TEST(SoftmaxRows, SubnormalResultsAreRoundedNotFlushed) {
  for (const aclDataType dtype : {ACL_BF16, ACL_FLOAT16, ACL_FLOAT}) {
    constexpr int64_t kCols = 64;
    Values values(kCols);
    values[0] = 0;
    for (int64_t j = 1; j < kCols; ++j) values[static_cast<size_t>(j)] = -84.5 - 0.5 * static_cast<double>(j % 31);
    const auto self = Upload(dtype, {1, kCols}, values);
    DeviceTensor out(dtype, {1, kCols});
    out.Poison();
    const OpRun run = RunSoftmax(false, *self, out);
    ASSERT_TRUE(run.ok()) << Describe(run);
    const Values got = out.ReadView();
    double sum = 0;
    for (const Value& v : values) sum += std::exp(v.real());
    // The smallest step of the dtype's subnormals (f16's results here are all 0 or its subnormals' 0).
    const double step = dtype == ACL_BF16 ? std::ldexp(1.0, -133) : dtype == ACL_FLOAT ? std::ldexp(1.0, -149) : 0;
    int nonzero = 0;
    for (int64_t j = 1; j < kCols; ++j) {
      const double want = std::exp(values[static_cast<size_t>(j)].real()) / sum;
      const double have = got[static_cast<size_t>(j)].real();
      if (dtype == ACL_FLOAT16) {
        EXPECT_EQ(have, 0.0) << "column " << j;  // far below fp16's range
        continue;
      }
      nonzero += have != 0;
      EXPECT_LE(std::abs(have - want), step + 0x1p-7 * want) << Name(dtype) << " column " << j << ": want " << want;
    }
    if (dtype != ACL_FLOAT16) {
      EXPECT_GT(nonzero, 20) << Name(dtype);
    }
  }
}

// Rows whose largest value is far from 0 (up to bf16's most negative, the
// mask fill of many clients): each term is taken relative to the max, so the
// results are those of the same row shifted to 0. And exp(0) is 1 exactly: a
// row's largest element weighs 1, so a one-column log-softmax is 0 and no
// log-probability is positive. (Regression: the 16-bit exponential once took
// the max's product with log2 e in f32, whose rounding at 1e10 is hundreds of
// binades, and its polynomial gave 2^0 = 1 + 2^-23.)
TEST(SoftmaxRows, LargeMagnitudeRowsAndExactMax) {
  struct Row {
    aclDataType dtype;
    std::vector<double> x;
  };
  const double bf16_lowest = -3.3895313892515355e38;  // -(2 - 2^-7) 2^127
  const std::vector<Row> rows = {
      {ACL_BF16, {bf16_lowest, bf16_lowest, bf16_lowest, bf16_lowest}},
      {ACL_BF16, {9999220736.0, 9999220736.0}},
      {ACL_BF16, {3.0040552718274585e38, 0, 1}},
      {ACL_BF16, {-998244352.0, -998244352.0, -998244352.0, -998244352.0}},
      {ACL_BF16, {1000}},
      {ACL_BF16, {0.6171875}},
      {ACL_FLOAT16, {65504, 65472}},
      {ACL_FLOAT16, {30000, 30000}},
      {ACL_FLOAT16, {5.0390625}},
      {ACL_FLOAT, {1e10, 1e10}},
      {ACL_FLOAT, {3e38, 0, 1}},
  };
  for (const bool log : {false, true}) {
    for (const Row& row : rows) {
      const auto cols = static_cast<int64_t>(row.x.size());
      Values values(row.x.size());
      for (size_t j = 0; j < row.x.size(); ++j) values[j] = row.x[j];
      const std::string what = std::string(log ? "logsoftmax " : "softmax ") + Name(row.dtype) + " of " +
                               std::to_string(row.x[0]) + " (" + std::to_string(cols) + " columns)";
      const auto self = Upload(row.dtype, {1, cols}, values);
      DeviceTensor out(row.dtype, {1, cols});
      out.Poison();
      const OpRun run = RunSoftmax(log, *self, out);
      ASSERT_TRUE(run.ok()) << what << ": " << Describe(run);
      ExpectNear(out.ReadView(), SoftmaxRows(log, values, 1, cols, row.dtype), what);
      const Values got = out.ReadView();
      for (int64_t j = 0; j < cols; ++j) {
        const double v = got[static_cast<size_t>(j)].real();
        if (log) {
          EXPECT_LE(v, 0.0) << what << " column " << j;
          if (cols == 1) {
            EXPECT_EQ(v, 0.0) << what;
          }
        } else if (cols == 1) {
          EXPECT_EQ(v, 1.0) << what;
        }
      }
    }
  }
}

// LayerNorm of a row holding one value gives beta exactly, however large the
// value (x - mean is 0, whatever rstd; regression: (x - mean) * rstd was
// x * rstd - mean * rstd in one fma, whose product's rounding the rstd of a
// constant row, 1 / sqrt(eps), magnified).
TEST(NormRows, ConstantRowsOfLargeValuesGiveBeta) {
  struct Case {
    aclDataType dtype;
    double value;
  };
  for (const Case c : {Case{ACL_FLOAT16, 60000}, Case{ACL_FLOAT16, 1000}, Case{ACL_BF16, 2e36}, Case{ACL_FLOAT, 1e35},
                       Case{ACL_FLOAT, 2e36}}) {
    for (const int64_t cols : {16, 4099}) {
      const std::string what =
          std::string(Name(c.dtype)) + " row of " + std::to_string(cols) + " x " + std::to_string(c.value);
      const Values x(static_cast<size_t>(cols), ConvertValue(c.value, c.dtype));
      const Values gamma(static_cast<size_t>(cols), 1.0), beta(static_cast<size_t>(cols), 0.5);
      const auto dx = Upload(c.dtype, {1, cols}, x);
      const auto dgamma = Upload(c.dtype, {cols}, gamma);
      const auto dbeta = Upload(c.dtype, {cols}, beta);
      DeviceTensor y(c.dtype, {1, cols}), mean(ACL_FLOAT, {1, 1}), rstd(ACL_FLOAT, {1, 1});
      y.Poison();
      const OpRun run = RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnLayerNormGetWorkspaceSize(a.Tensor(*dx), a.IntArray({cols}), a.Tensor(*dgamma),
                                                  a.Tensor(*dbeta), 1e-5, a.Tensor(y), a.Tensor(mean), a.Tensor(rstd),
                                                  ws, e);
          },
          aclnnLayerNorm);
      ASSERT_TRUE(run.ok()) << what << ": " << Describe(run);
      const Values got = y.ReadView();
      for (int64_t j = 0; j < cols; ++j) {
        ASSERT_EQ(got[static_cast<size_t>(j)].real(), 0.5) << what << " column " << j;
      }
    }
  }
}

// LayerNorm (mean and rstd out) and RmsNorm (rstd out) over [rows, cols] in
// float64; `values` are x, gamma and beta of f32 data.
struct NormReference {
  Values y, mean, rstd;
};

NormReference NormRows(bool layer, const Values& x, const Values& gamma, const Values& beta, int64_t rows, int64_t cols,
                       double eps) {
  NormReference ref;
  for (int64_t r = 0; r < rows; ++r) {
    const auto at = [&](int64_t j) { return static_cast<size_t>(r * cols + j); };
    double mean = 0, squares = 0;
    if (layer) {
      for (int64_t j = 0; j < cols; ++j) mean += x[at(j)].real();
      mean /= static_cast<double>(cols);
    }
    for (int64_t j = 0; j < cols; ++j) squares += (x[at(j)].real() - mean) * (x[at(j)].real() - mean);
    const double rstd = 1 / std::sqrt(squares / static_cast<double>(cols) + eps);
    for (int64_t j = 0; j < cols; ++j) {
      const auto k = static_cast<size_t>(j);
      ref.y.emplace_back((x[at(j)].real() - mean) * rstd * gamma[k].real() + (layer ? beta[k].real() : 0.0));
    }
    ref.mean.emplace_back(mean);
    ref.rstd.emplace_back(rstd);
  }
  return ref;
}

// LayerNorm or RmsNorm over [rows, cols] of `dtype` (gamma and beta too; rstd
// and mean f32) whose rows have a trend far from 0 (300 + 40 j / cols plus
// noise), against the float64 reference.
void CheckNormRows(bool layer, aclDataType dtype, int64_t rows, int64_t cols) {
  constexpr double kEps = 1e-5;
  const std::string what =
      std::string(layer ? "layer " : "rms ") + Name(dtype) + " " + std::to_string(rows) + "x" + std::to_string(cols);
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE(what + ", seed " + std::to_string(rng.seed()));
  const int64_t n = rows * cols;
  Values x = RandomValues(rng, ACL_FLOAT, n, Range{-1, 1});
  for (int64_t i = 0; i < n; ++i) {
    const double position = static_cast<double>(i % cols) / static_cast<double>(cols);
    x[static_cast<size_t>(i)] = ConvertValue(300 + 40 * position + x[static_cast<size_t>(i)].real(), dtype);
  }
  const Values gamma = RandomValues(rng, dtype, cols, Range{0.5, 2});
  const Values beta = RandomValues(rng, dtype, cols, Range{-1, 1});
  const auto dx = Upload(dtype, {rows, cols}, x);
  const auto dgamma = Upload(dtype, {cols}, gamma);
  const auto dbeta = Upload(dtype, {cols}, beta);
  DeviceTensor y(dtype, {rows, cols}), mean(ACL_FLOAT, {rows, 1}), rstd(ACL_FLOAT, {rows, 1});
  y.Poison();
  mean.Poison();
  rstd.Poison();
  const OpRun run = layer ? RunOp(
                                [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                                  return aclnnLayerNormGetWorkspaceSize(
                                      a.Tensor(*dx), a.IntArray({cols}), a.Tensor(*dgamma), a.Tensor(*dbeta), kEps,
                                      a.Tensor(y), a.Tensor(mean), a.Tensor(rstd), ws, e);
                                },
                                aclnnLayerNorm)
                          : RunOp(
                                [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
                                  return aclnnRmsNormGetWorkspaceSize(a.Tensor(*dx), a.Tensor(*dgamma), kEps,
                                                                      a.Tensor(y), a.Tensor(rstd), ws, e);
                                },
                                aclnnRmsNorm);
  ASSERT_TRUE(run.ok()) << what << ": " << Describe(run);
  const NormReference ref = NormRows(layer, x, gamma, beta, rows, cols, kEps);
  // rstd from f64 sums, rounded to f32; y from f32 arithmetic on x - mean, where the f32 mean's
  // rounding (|mean| u) scaled by rstd dominates, rounded to the dtype.
  Expected want_rstd{ref.rstd, {}}, want_y{ref.y, {}};
  for (int64_t r = 0; r < rows; ++r) {
    want_rstd.tolerance.push_back(4 * kF32Roundoff * ref.rstd[static_cast<size_t>(r)].real());
    for (int64_t j = 0; j < cols; ++j) {
      const auto i = static_cast<size_t>(r * cols + j);
      const double scale = (std::abs(x[i].real()) + std::abs(ref.mean[static_cast<size_t>(r)].real())) *
                               ref.rstd[static_cast<size_t>(r)].real() * gamma[static_cast<size_t>(j)].real() +
                           std::abs(ref.y[i].real());
      want_y.values[i] = ConvertValue(ref.y[i].real(), dtype);
      want_y.tolerance.push_back(8 * kF32Roundoff * scale + (dtype == ACL_FLOAT ? 0 : UnitRoundoff(dtype) * scale));
    }
  }
  ExpectNear(rstd.ReadView(), want_rstd, what + " rstd");
  ExpectNear(y.ReadView(), want_y, what + " y");
  if (layer) {
    Expected want_mean{ref.mean, {}};
    for (const Value& m : ref.mean) want_mean.tolerance.push_back(2 * kF32Roundoff * std::abs(m.real()));
    ExpectNear(mean.ReadView(), want_mean, what + " mean");
  }
}

// Rows of several chunks whose chunks have different means (a trend along the
// row) far from 0: the chunks' statistics must be combined with their means'
// spread. Rows over a MiB, and rows of every vector tail length too.
TEST(NormRows, LongRowsWithATrendAndShortTails) {
  struct Shape2 {
    int64_t rows, cols;
  };
  for (const Shape2 shape :
       {Shape2{2, 100003}, Shape2{1, 300001}, Shape2{2, 300001}, Shape2{3, 17}, Shape2{3, 33}, Shape2{5, 1}}) {
    for (const bool layer : {true, false}) CheckNormRows(layer, ACL_FLOAT, shape.rows, shape.cols);
  }
}

// Every output streamed past the caches (as outputs of 256 MiB and more are):
// the same results, whatever the alignment of a row (rows of odd lengths start
// anywhere), in every dtype, rows of one chunk and of several.
TEST(RowsStreamed, SameResultsAsStored) {
  ASSERT_EQ(setenv("CANOPY_STREAM_OUTPUT_BYTES", "0", 1), 0);
  struct Shape2 {
    int64_t rows, cols;
  };
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const Shape2 shape : {Shape2{3, 47}, Shape2{5, 4099}, Shape2{2, 70001}}) {
      for (const bool layer : {true, false}) CheckNormRows(layer, dtype, shape.rows, shape.cols);
      for (const bool log : {false, true}) {
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor self(dtype, {shape.rows, shape.cols});
        const Values values = self.FillRandom(rng, Range{-12, 12});
        DeviceTensor out(dtype, {shape.rows, shape.cols});
        out.Poison();
        const OpRun run = RunSoftmax(log, self, out);
        ASSERT_TRUE(run.ok()) << Describe(run);
        ExpectNear(out.ReadView(), SoftmaxRows(log, values, shape.rows, shape.cols, dtype),
                   std::string(log ? "streamed logsoftmax " : "streamed softmax ") + Name(dtype));
      }
    }
  }
  ASSERT_EQ(unsetenv("CANOPY_STREAM_OUTPUT_BYTES"), 0);
}

}  // namespace
}  // namespace canopy_test
