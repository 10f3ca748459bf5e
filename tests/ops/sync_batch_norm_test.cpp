// SyncBatchNorm's steps: BatchNormStats, BatchNormReduce (NCHW and NHWC), BatchNormElemt,
// BatchNormGatherStatsWithCounts and SyncBatchNormGatherStats, each against a float64 reference
// on random data in every A2 dtype, with strided views, null optional arguments, empty tensors
// (CANN's fills) and CANN's rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_batch_norm_elemt.h"
#include "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h"
#include "aclnnop/aclnn_batch_norm_reduce.h"
#include "aclnnop/aclnn_batch_norm_stats.h"
#include "aclnnop/aclnn_sync_batch_norm_gather_stats.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kEps = 1e-5;
const double kNan = std::numeric_limits<double>::quiet_NaN();

// Per channel of x ([N, C, S] row-major values): sum, sum of squares, mean, biased variance.
struct ChannelStats {
  std::vector<double> sum, squares, mean, var;
};
ChannelStats StatsOf(const std::vector<double>& x, int64_t n, int64_t c, int64_t s) {
  ChannelStats st;
  for (int64_t ch = 0; ch < c; ++ch) {
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < s; ++j) {
        const double v = x[static_cast<size_t>((i * c + ch) * s + j)];
        sum += v;
        sq += v * v;
      }
    }
    const auto count = static_cast<double>(n * s);
    const double mean = sum / count;
    double dev = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < s; ++j) {
        const double v = x[static_cast<size_t>((i * c + ch) * s + j)] - mean;
        dev += v * v;
      }
    }
    st.sum.push_back(sum);
    st.squares.push_back(sq);
    st.mean.push_back(mean);
    st.var.push_back(dev / count);
  }
  return st;
}

int64_t Spatial(const Shape& shape) { return NumElements(shape) / (shape[0] * shape[1]); }

// ---- BatchNormStats ---------------------------------------------------------------------------------

TEST(BatchNormStats, MatchesFloat64Reference) {
  struct Case {
    aclDataType dtype;
    Shape shape;
    View view, statView;
  };
  const Case cases[] = {
      {ACL_FLOAT, {4, 3, 5, 6}, View::kContiguous, View::kContiguous},
      {ACL_FLOAT16, {4, 3, 5, 6}, View::kTransposed, View::kStepped},
      {ACL_FLOAT, {16, 7}, View::kReversed, View::kContiguous},
      {ACL_FLOAT16, {3, 5, 7}, View::kStepped, View::kOffset},
      {ACL_FLOAT, {2, 3, 2, 1, 2, 1, 2, 3}, View::kContiguous, View::kContiguous},
      {ACL_FLOAT, {8, 16, 32, 32}, View::kContiguous, View::kContiguous},
  };
  for (const Case& c : cases) {
    const std::string what = std::string(Name(c.dtype)) + " " + ShapeString(c.shape);
    Rng rng = Rng::ForCurrentTest();
    const int64_t channels = c.shape[1];
    DeviceTensor x(c.dtype, c.shape, c.view), mean(ACL_FLOAT, {channels}, c.statView),
        invstd(ACL_FLOAT, {channels}, c.statView);
    const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-2, 3}));
    mean.Poison();
    invstd.Poison();
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnBatchNormStatsGetWorkspaceSize(a.Tensor(x), kEps, a.Tensor(mean), a.Tensor(invstd), w, e);
        },
        aclnnBatchNormStats);
    const ChannelStats st = StatsOf(xv, c.shape[0], channels, Spatial(c.shape));
    std::vector<double> want_invstd;
    for (const double v : st.var) want_invstd.push_back(1 / std::sqrt(v + kEps));
    ExpectNear(mean.ReadView(), Within(st.mean, 3.0, ACL_FLOAT, 8), what + " mean");
    ExpectNear(invstd.ReadView(), Within(want_invstd, 0.0, ACL_FLOAT, 8), what + " invstd");
  }
}

TEST(BatchNormStats, EmptyInputFillsZeroAndNan) {
  DeviceTensor x(ACL_FLOAT, {0, 3, 4}), mean(ACL_FLOAT, {3}), invstd(ACL_FLOAT, {3});
  mean.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnBatchNormStatsGetWorkspaceSize(a.Tensor(x), kEps, a.Tensor(mean), a.Tensor(invstd), w, e);
      },
      aclnnBatchNormStats);
  ExpectExact(mean.ReadView(), {0, 0, 0}, "mean");
  ExpectNear(invstd.ReadView(), Expected{{kNan, kNan, kNan}, {0, 0, 0}}, "invstd");
}

// ---- BatchNormReduce ----------------------------------------------------------------------------------

TEST(BatchNormReduce, MatchesFloat64Reference) {
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const bool nhwc : {false, true}) {
      for (const View view : {View::kContiguous, View::kTransposed}) {
        const std::string what = std::string(Name(dtype)) + (nhwc ? " NHWC " : " NCHW ") + ViewName(view);
        Rng rng = Rng::ForCurrentTest();
        const Shape shape = nhwc ? Shape{2, 3, 4, 5} : Shape{2, 5, 3, 4};
        DeviceTensor x(dtype, shape, view), sum(ACL_FLOAT, {5}, View::kStepped), squares(ACL_FLOAT, {5});
        const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-2, 2}));
        sum.Poison();
        squares.Poison();
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnBatchNormReduceGetWorkspaceSize(a.Tensor(x, nhwc ? ACL_FORMAT_NHWC : ACL_FORMAT_NCHW),
                                                          a.Tensor(sum), a.Tensor(squares), w, e);
            },
            aclnnBatchNormReduce);
        // NHWC: channel c of element (n, h, w) at ((n * H + h) * W + w) * C + c, i.e. [N*H*W, C, 1].
        const ChannelStats st = nhwc ? StatsOf(xv, 24, 5, 1) : StatsOf(xv, 2, 5, 12);
        ExpectNear(sum.ReadView(), Within(st.sum, 24.0, ACL_FLOAT, 8), what + " sum");
        ExpectNear(squares.ReadView(), Within(st.squares, 0.0, ACL_FLOAT, 8), what + " squareSum");
      }
    }
  }
}

// An empty tensor among the three: zeros, before any other check (an ND x passes).
TEST(BatchNormReduce, EmptyTensorsGiveZeros) {
  DeviceTensor x(ACL_FLOAT, {0, 2, 3, 4}), sum(ACL_FLOAT, {2}), squares(ACL_FLOAT, {2});
  sum.Poison();
  squares.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnBatchNormReduceGetWorkspaceSize(a.Tensor(x), a.Tensor(sum), a.Tensor(squares), w, e);
      },
      aclnnBatchNormReduce);
  ExpectExact(sum.ReadView(), {0, 0}, "sum");
  ExpectExact(squares.ReadView(), {0, 0}, "squareSum");
}

// ---- BatchNormElemt ---------------------------------------------------------------------------------

TEST(BatchNormElemt, MatchesFloat64Reference) {
  struct Case {
    aclDataType in, stat, out;
    Shape shape;
    bool affine;
    View view, outView;
  };
  const Case cases[] = {
      {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {2, 4, 2}, true, View::kContiguous, View::kContiguous},
      {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, {3, 5, 4, 4}, true, View::kTransposed, View::kStepped},
      {ACL_BF16, ACL_BF16, ACL_BF16, {6, 5}, false, View::kReversed, View::kContiguous},
      {ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT, {2, 3, 8}, true, View::kStepped, View::kReversed},
      {ACL_BF16, ACL_FLOAT, ACL_FLOAT16, {2, 3, 2, 1, 2, 1, 2}, false, View::kContiguous, View::kTransposed},
  };
  for (const Case& c : cases) {
    const std::string what = std::string(Name(c.in)) + "->" + Name(c.out) + " " + ShapeString(c.shape);
    Rng rng = Rng::ForCurrentTest();
    const int64_t channels = c.shape[1], spatial = Spatial(c.shape);
    DeviceTensor x(c.in, c.shape, c.view), mean(c.stat, {channels}, View::kStepped), invstd(c.stat, {channels}),
        out(c.out, c.shape, c.outView);
    std::optional<DeviceTensor> weight, bias;
    const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-2, 2}));
    const std::vector<double> mv = Reals(mean.FillRandom(rng, Range{-1, 1}));
    const std::vector<double> sv = Reals(invstd.FillRandom(rng, Range{0.5, 2}));
    std::vector<double> wv(static_cast<size_t>(channels), 1), bv(static_cast<size_t>(channels), 0);
    if (c.affine) {
      weight.emplace(c.stat, Shape{channels});
      bias.emplace(c.stat, Shape{channels}, View::kOffset);
      wv = Reals(weight->FillRandom(rng, Range{-2, 2}));
      bv = Reals(bias->FillRandom(rng, Range{-1, 1}));
    }
    out.Poison();
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnBatchNormElemtGetWorkspaceSize(a.Tensor(x), Or(a, weight), Or(a, bias), a.Tensor(mean),
                                                     a.Tensor(invstd), kEps, a.Tensor(out), w, e);
        },
        aclnnBatchNormElemt);
    std::vector<double> want;
    for (size_t i = 0; i < xv.size(); ++i) {
      const auto ch = static_cast<size_t>((static_cast<int64_t>(i) / spatial) % channels);
      want.push_back((xv[i] - mv[ch]) * sv[ch] * wv[ch] + bv[ch]);
    }
    ExpectNear(out.ReadView(), Within(want, 8.0, c.out, 8), what);
  }
}

// ---- BatchNormGatherStatsWithCounts and SyncBatchNormGatherStats --------------------------------------

struct Gathered {
  std::vector<double> mean, invstd, runningMean, runningVar;
};

// Pooled statistics of `world` batches given as (count, sum, sum of squares) per channel.
Gathered Pool(const std::vector<double>& counts, const std::vector<double>& sums, const std::vector<double>& squares,
              int64_t channels, const std::vector<double>& rm, const std::vector<double>& rv, double momentum,
              double eps) {
  Gathered g;
  double total = 0;
  for (const double n : counts) total += n;
  for (int64_t c = 0; c < channels; ++c) {
    double s = 0, q = 0;
    for (size_t w = 0; w < counts.size(); ++w) {
      s += sums[w * static_cast<size_t>(channels) + static_cast<size_t>(c)];
      q += squares[w * static_cast<size_t>(channels) + static_cast<size_t>(c)];
    }
    const double mean = s / total, var = q / total - mean * mean;
    g.mean.push_back(mean);
    g.invstd.push_back(1 / std::sqrt(var + eps));
    const auto k = static_cast<size_t>(c);
    if (!rm.empty()) g.runningMean.push_back((1 - momentum) * rm[k] + momentum * mean);
    if (!rv.empty()) g.runningVar.push_back((1 - momentum) * rv[k] + momentum * var * total / (total - 1));
  }
  return g;
}

TEST(BatchNormGatherStatsWithCounts, MatchesFloat64Reference) {
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const bool running : {true, false}) {
      const std::string what = std::string(Name(dtype)) + (running ? " running" : " no running");
      Rng rng = Rng::ForCurrentTest();
      const int64_t world = 3, channels = 4;
      const double momentum = 0.2;
      DeviceTensor input(dtype, {2, channels, 2}), mean(dtype, {world, channels}, View::kTransposed),
          invstd(dtype, {world, channels}), counts(dtype, {world}, View::kStepped), meanAll(dtype, {channels}),
          invstdAll(dtype, {channels}, View::kStepped);
      std::optional<DeviceTensor> rmean, rvar;
      input.FillRandom(rng, Range{-1, 1});
      const std::vector<double> mv = Reals(mean.FillRandom(rng, Range{-1, 1}));
      const std::vector<double> sv = Reals(invstd.FillRandom(rng, Range{0.5, 2}));
      const std::vector<double> nv = Reals(counts.FillRandom(rng, Range{2, 9}));
      std::vector<double> rmv, rvv;
      if (running) {
        rmean.emplace(dtype, Shape{channels});
        rvar.emplace(dtype, Shape{channels}, View::kOffset);
        rmv = Reals(rmean->FillRandom(rng, Range{-1, 1}));
        rvv = Reals(rvar->FillRandom(rng, Range{0.5, 2}));
      }
      meanAll.Poison();
      invstdAll.Poison();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(
                a.Tensor(input), a.Tensor(mean), a.Tensor(invstd), Or(a, rmean), Or(a, rvar), momentum, kEps,
                a.Tensor(counts), a.Tensor(meanAll), a.Tensor(invstdAll), w, e);
          },
          aclnnBatchNormGatherStatsWithCounts);
      // Each batch as (count, sum, sum of squares): sum = n m, squares = n (var + m^2), var = 1 / s^2 - eps.
      std::vector<double> sums, squares;
      for (int64_t w = 0; w < world; ++w) {
        for (int64_t c = 0; c < channels; ++c) {
          const auto k = static_cast<size_t>(w * channels + c);
          const double n = nv[static_cast<size_t>(w)], m = mv[k];
          sums.push_back(n * m);
          squares.push_back(n * (1 / (sv[k] * sv[k]) - kEps + m * m));
        }
      }
      const Gathered g = Pool(nv, sums, squares, channels, rmv, rvv, momentum, kEps);
      ExpectNear(meanAll.ReadView(), Within(g.mean, 2.0, dtype, 8), what + " meanAll");
      ExpectNear(invstdAll.ReadView(), Within(g.invstd, 2.0, dtype, 8), what + " invstdAll");
      if (running) {
        ExpectNear(rmean->ReadView(), Within(g.runningMean, 2.0, dtype, 8), what + " runningMean");
        ExpectNear(rvar->ReadView(), Within(g.runningVar, 4.0, dtype, 8), what + " runningVar");
      }
    }
  }
}

TEST(BatchNormGatherStatsWithCounts, EmptyMeanFillsZeroAndNan) {
  DeviceTensor input(ACL_FLOAT, {2, 3}), mean(ACL_FLOAT, {0, 3}), invstd(ACL_FLOAT, {0, 3}), counts(ACL_FLOAT, {0}),
      meanAll(ACL_FLOAT, {3}), invstdAll(ACL_FLOAT, {3});
  meanAll.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(a.Tensor(input), a.Tensor(mean), a.Tensor(invstd),
                                                                   nullptr, nullptr, 0.1, kEps, a.Tensor(counts),
                                                                   a.Tensor(meanAll), a.Tensor(invstdAll), w, e);
      },
      aclnnBatchNormGatherStatsWithCounts);
  ExpectExact(meanAll.ReadView(), {0, 0, 0}, "meanAll");
  ExpectNear(invstdAll.ReadView(), Expected{{kNan, kNan, kNan}, {0, 0, 0}}, "invstdAll");
}

TEST(SyncBatchNormGatherStats, MatchesFloat64Reference) {
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (const aclDataType countDtype : {ACL_INT32, ACL_FLOAT, ACL_FLOAT16}) {
      const std::string what = std::string(Name(dtype)) + " counts " + Name(countDtype);
      Rng rng = Rng::ForCurrentTest();
      const int64_t world = 4, channels = 5;
      const double momentum = 0.1;
      DeviceTensor sums(dtype, {world, channels}, View::kTransposed), squares(dtype, {world, channels}),
          counts(countDtype, {world}), rmean(dtype, {channels}, View::kStepped), rvar(dtype, {channels}),
          batchMean(ACL_FLOAT, {channels}), batchInvstd(ACL_FLOAT, {channels}, View::kOffset);
      // Each batch: count n (a fraction for the float forms: CANN truncates it to INT32) and values in [-1, 1].
      std::vector<double> nv, nTrunc, sv, qv;
      Values nvals;
      for (int64_t w = 0; w < world; ++w) {
        const double n = std::floor(rng.Uniform(4, 12)) + (countDtype == ACL_INT32 ? 0 : 0.5);
        nvals.emplace_back(n);
        nTrunc.push_back(std::trunc(n));
      }
      for (int64_t w = 0; w < world; ++w) {
        for (int64_t c = 0; c < channels; ++c) {
          const double n = nTrunc[static_cast<size_t>(w)], m = rng.Uniform(-1, 1), var = rng.Uniform(0.2, 1);
          sv.push_back(ConvertValue(n * m, dtype).real());
          qv.push_back(ConvertValue(n * (var + m * m), dtype).real());
        }
      }
      sums.WriteView(Values(sv.begin(), sv.end()));
      squares.WriteView(Values(qv.begin(), qv.end()));
      counts.WriteView(nvals);
      const std::vector<double> rmv = Reals(rmean.FillRandom(rng, Range{-1, 1}));
      const std::vector<double> rvv = Reals(rvar.FillRandom(rng, Range{0.5, 2}));
      batchMean.Poison();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnSyncBatchNormGatherStatsGetWorkspaceSize(a.Tensor(sums), a.Tensor(squares), a.Tensor(counts),
                                                                 a.Tensor(rmean), a.Tensor(rvar),
                                                                 static_cast<float>(momentum), static_cast<float>(kEps),
                                                                 a.Tensor(batchMean), a.Tensor(batchInvstd), w, e);
          },
          aclnnSyncBatchNormGatherStats);
      const Gathered g = Pool(nTrunc, sv, qv, channels, rmv, rvv, momentum, kEps);
      // E[x^2] - E[x]^2 cancels: the terms' size, not the variance's, sets the error.
      ExpectNear(batchMean.ReadView(), Within(g.mean, 2.0, ACL_FLOAT, 8), what + " batchMean");
      ExpectNear(batchInvstd.ReadView(), Within(g.invstd, 32.0, ACL_FLOAT, 8), what + " batchInvstd");
      ExpectNear(rmean.ReadView(), Within(g.runningMean, 2.0, dtype, 8), what + " mean");
      ExpectNear(rvar.ReadView(), Within(g.runningVar, 4.0, dtype, 8), what + " variance");
    }
  }
}

// CANN's example program: one batch of 400 with sums 300 and 400 and squares 300 and 400.
TEST(SyncBatchNormGatherStats, CannExampleProgram) {
  auto sums = Upload(ACL_FLOAT, {1, 2}, {300, 400});
  auto squares = Upload(ACL_FLOAT, {1, 2}, {300, 400});
  auto counts = Upload(ACL_INT32, {1}, {400});
  auto mean = Upload(ACL_FLOAT, {2}, {400, 400});
  auto var = Upload(ACL_FLOAT, {2}, {400, 400});
  auto batchMean = Poisoned(ACL_FLOAT, {2});
  auto batchInvstd = Poisoned(ACL_FLOAT, {2});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSyncBatchNormGatherStatsGetWorkspaceSize(a.Tensor(*sums), a.Tensor(*squares), a.Tensor(*counts),
                                                             a.Tensor(*mean), a.Tensor(*var), 0.1F, 1e-5F,
                                                             a.Tensor(*batchMean), a.Tensor(*batchInvstd), w, e);
      },
      aclnnSyncBatchNormGatherStats);
  const double v0 = 300.0 / 400 - 0.75 * 0.75;  // the second channel's variance is 0
  const double e = static_cast<double>(1e-5F);
  ExpectNear(batchMean->ReadView(), Within({0.75, 1.0}, 0, ACL_FLOAT, 4), "batchMean");
  ExpectNear(batchInvstd->ReadView(), Within({1 / std::sqrt(v0 + e), 1 / std::sqrt(e)}, 0, ACL_FLOAT, 64),
             "batchInvstd");
  ExpectNear(mean->ReadView(), Within({360.075, 360.1}, 0, ACL_FLOAT, 4), "mean");
  ExpectNear(var->ReadView(), Within({360 + 0.1 * v0 * 400 / 399, 360.0}, 0, ACL_FLOAT, 4), "variance");
}

// ---- Rejections ---------------------------------------------------------------------------------------

TEST(BatchNormStats, Rejections) {
  struct Bad {
    const char* name;
    aclDataType in, mean;
    Shape shape, meanShape;
    const char* keyword;
  };
  const Bad cases[] = {
      {"bf16 input", ACL_BF16, ACL_FLOAT, {2, 3}, {3}, "input"},
      {"f16 mean", ACL_FLOAT16, ACL_FLOAT16, {2, 3}, {3}, "mean"},
      {"rank 1 input", ACL_FLOAT, ACL_FLOAT, {3}, {3}, "input"},
      {"no channels", ACL_FLOAT, ACL_FLOAT, {2, 0}, {0}, "channels"},
      {"mean shape", ACL_FLOAT, ACL_FLOAT, {2, 3}, {2}, "mean"},
      {"mean rank", ACL_FLOAT, ACL_FLOAT, {2, 3}, {1, 3}, "mean"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.in, bad.shape), mean(bad.mean, bad.meanShape), invstd(ACL_FLOAT, {bad.shape.back()});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnBatchNormStatsGetWorkspaceSize(a.Tensor(x), kEps, a.Tensor(mean), a.Tensor(invstd), w, e);
        },
        aclnnBatchNormStats);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(BatchNormReduce, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x, sum;
    Shape shape, sumShape;
    aclFormat format, sumFormat;
    const char* keyword;
  };
  const aclFormat nchw = ACL_FORMAT_NCHW, nd = ACL_FORMAT_ND;
  const Bad cases[] = {
      {"s32 x", ACL_INT32, ACL_FLOAT, {1, 2, 3, 4}, {2}, nchw, nd, "x"},
      {"f16 sum", ACL_FLOAT, ACL_FLOAT16, {1, 2, 3, 4}, {2}, nchw, nd, "sum"},
      {"ND x", ACL_FLOAT, ACL_FLOAT, {1, 2, 3, 4}, {2}, nd, nd, "format"},
      {"NCHW sum", ACL_FLOAT, ACL_FLOAT, {1, 2, 3, 4}, {2}, nchw, nchw, "sum"},
      {"rank 3 x", ACL_FLOAT, ACL_FLOAT, {1, 2, 3}, {2}, ACL_FORMAT_NCL, nd, "x"},
      {"sum shape", ACL_FLOAT, ACL_FLOAT, {1, 2, 3, 4}, {4}, nchw, nd, "sum"},
      {"NHWC channels last", ACL_FLOAT, ACL_FLOAT, {1, 2, 3, 4}, {2}, ACL_FORMAT_NHWC, nd, "sum"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.x, bad.shape), sum(bad.sum, bad.sumShape), squares(ACL_FLOAT, bad.sumShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnBatchNormReduceGetWorkspaceSize(a.Tensor(x, bad.format), a.Tensor(sum, bad.sumFormat),
                                                      a.Tensor(squares), w, e);
        },
        aclnnBatchNormReduce);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(BatchNormElemt, Rejections) {
  struct Bad {
    const char* name;
    aclDataType in, weight, out;
    Shape shape, outShape, statShape;
    aclFormat outFormat;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT;
  const Bad cases[] = {
      {"f64 input", ACL_DOUBLE, f32, f32, {2, 3}, {2, 3}, {3}, ACL_FORMAT_ND, "input"},
      {"s32 weight", f32, ACL_INT32, f32, {2, 3}, {2, 3}, {3}, ACL_FORMAT_ND, "weight"},
      {"format differs", f32, f32, f32, {2, 3, 4}, {2, 3, 4}, {3}, ACL_FORMAT_NCL, "format"},
      {"rank 1", f32, f32, f32, {3}, {3}, {3}, ACL_FORMAT_ND, "input"},
      {"output shape", f32, f32, f32, {2, 3}, {3, 2}, {3}, ACL_FORMAT_ND, "output"},
      {"no channels", f32, f32, f32, {2, 0}, {2, 0}, {0}, ACL_FORMAT_ND, "channels"},
      {"stat shape", f32, f32, f32, {2, 3}, {2, 3}, {2}, ACL_FORMAT_ND, "weight"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.in, bad.shape), weight(bad.weight, bad.statShape), mean(f32, bad.statShape),
        invstd(f32, bad.statShape), out(bad.out, bad.outShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnBatchNormElemtGetWorkspaceSize(a.Tensor(x), a.Tensor(weight), nullptr, a.Tensor(mean),
                                                     a.Tensor(invstd), kEps, a.Tensor(out, bad.outFormat), w, e);
        },
        aclnnBatchNormElemt);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(BatchNormGatherStatsWithCounts, Rejections) {
  struct Bad {
    const char* name;
    aclDataType mean, counts;
    Shape meanShape, countsShape, allShape;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT;
  const Bad cases[] = {
      {"s32 counts", f32, ACL_INT32, {2, 3}, {2}, {3}, "counts"},
      {"f64 mean", ACL_DOUBLE, f32, {2, 3}, {2}, {3}, "mean"},
      {"mean rank", f32, f32, {6}, {2}, {3}, "mean"},
      {"counts rows", f32, f32, {2, 3}, {3}, {3}, "counts"},
      {"counts rank", f32, f32, {2, 3}, {2, 1}, {3}, "counts"},
      {"mean channels", f32, f32, {2, 4}, {2}, {3}, "mean"},
      {"meanAll shape", f32, f32, {2, 3}, {2}, {4}, "meanAll"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor input(f32, {4, 3}), mean(bad.mean, bad.meanShape), invstd(f32, bad.meanShape),
        counts(bad.counts, bad.countsShape), meanAll(f32, bad.allShape), invstdAll(f32, {3});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(a.Tensor(input), a.Tensor(mean), a.Tensor(invstd),
                                                                     nullptr, nullptr, 0.1, kEps, a.Tensor(counts),
                                                                     a.Tensor(meanAll), a.Tensor(invstdAll), w, e);
        },
        aclnnBatchNormGatherStatsWithCounts);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(SyncBatchNormGatherStats, Rejections) {
  struct Bad {
    const char* name;
    aclDataType sum, squares, counts, mean, batch;
    Shape sumShape, countsShape, meanShape;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16, bf16 = ACL_BF16;
  const Bad cases[] = {
      {"bf16 totalSum (A2)", bf16, bf16, f32, bf16, f32, {2, 3}, {2}, {3}, "totalSum"},
      {"s64 sampleCount", f32, f32, ACL_INT64, f32, f32, {2, 3}, {2}, {3}, "sampleCount"},
      {"squares dtype", f32, f16, f32, f32, f32, {2, 3}, {2}, {3}, "totalSquareSum"},
      {"mean dtype", f32, f32, f32, f16, f32, {2, 3}, {2}, {3}, "mean"},
      {"totalSum rank", f32, f32, f32, f32, f32, {6}, {2}, {3}, "totalSum"},
      {"sampleCount rows", f32, f32, f32, f32, f32, {2, 3}, {3}, {3}, "sampleCount"},
      {"mean shape", f32, f32, f32, f32, f32, {2, 3}, {2}, {4}, "mean"},
      {"no rows", f32, f32, f32, f32, f32, {0, 3}, {0}, {3}, "totalSum"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor sums(bad.sum, bad.sumShape), squares(bad.squares, bad.sumShape), counts(bad.counts, bad.countsShape),
        mean(bad.mean, bad.meanShape), var(bad.mean, bad.meanShape), bm(bad.batch, {3}), bi(f32, {3});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnSyncBatchNormGatherStatsGetWorkspaceSize(a.Tensor(sums), a.Tensor(squares), a.Tensor(counts),
                                                               a.Tensor(mean), a.Tensor(var), 0.1F, 1e-5F, a.Tensor(bm),
                                                               a.Tensor(bi), w, e);
        },
        aclnnSyncBatchNormGatherStats);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
