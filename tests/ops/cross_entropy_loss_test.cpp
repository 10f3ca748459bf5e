// CrossEntropyLoss through the public API against a float64 reference of
// torch.nn.functional.cross_entropy: every reduction, with and without class
// weights, ignored samples (all of them: a NaN mean), label smoothing, every
// A2 input dtype, strided views, the z-loss outputs left alone, a target out
// of range (a stream error), CANN's example and the rejections (161002 for
// dtypes, 561002 for what CANN's tiling checks).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct LossCase {
  int64_t n, c;
  std::string reduction;
  bool weighted;
  double smoothing;
  int ignoreEvery;  // every k-th sample's target is ignoreIndex (0: none)
};

constexpr int64_t kIgnore = -100;

// logProb and the loss, in float64.
void Reference(const Values& x, const std::vector<int64_t>& y, const Values& w, const LossCase& c, Values& logProb,
               Values& loss) {
  double nllSum = 0, smoothSum = 0, weightSum = 0;
  for (int64_t i = 0; i < c.n; ++i) {
    double max = -std::numeric_limits<double>::infinity(), sum = 0;
    for (int64_t j = 0; j < c.c; ++j) max = std::max(max, x[static_cast<size_t>(i * c.c + j)].real());
    for (int64_t j = 0; j < c.c; ++j) sum += std::exp(x[static_cast<size_t>(i * c.c + j)].real() - max);
    const double lse = max + std::log(sum);
    double smooth = 0;
    for (int64_t j = 0; j < c.c; ++j) {
      const double lp = x[static_cast<size_t>(i * c.c + j)].real() - lse;
      logProb.emplace_back(lp);
      smooth -= (c.weighted ? w[static_cast<size_t>(j)].real() : 1.0) * lp;
    }
    double nll = 0;
    const int64_t t = y[static_cast<size_t>(i)];
    if (t == kIgnore) {
      smooth = 0;
    } else {
      const double wy = c.weighted ? w[static_cast<size_t>(t)].real() : 1.0;
      nll = -wy * logProb[static_cast<size_t>(i * c.c + t)].real();
      weightSum += wy;
    }
    if (c.reduction == "none")
      loss.emplace_back((1 - c.smoothing) * nll + c.smoothing / static_cast<double>(c.c) * smooth);
    nllSum += nll;
    smoothSum += smooth;
  }
  const double total = (1 - c.smoothing) * nllSum + c.smoothing / static_cast<double>(c.c) * smoothSum;
  if (c.reduction == "sum") loss.emplace_back(total);
  if (c.reduction == "mean") loss.emplace_back(total / weightSum);
}

Expected Near(const Values& values, aclDataType dtype, double scale) {
  Expected e{values, {}};
  for (const Value& v : values) e.tolerance.push_back(4 * UnitRoundoff(dtype) * std::max(std::abs(v.real()), scale));
  return e;
}

TEST(CrossEntropyLoss, MatchesReference) {
  const std::vector<LossCase> cases = {
      {4, 5, "mean", false, 0, 0},   {6, 3, "sum", true, 0, 3},     {5, 7, "none", true, 0.1, 2},
      {3, 4, "mean", true, 0.25, 2}, {8, 1, "none", false, 0.5, 0}, {4, 6, "mean", false, 0.3, 1},  // all ignored
      {0, 3, "sum", true, 0.2, 0},
  };
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const LossCase& c : cases) {
      SCOPED_TRACE(std::string(Name(dtype)) + " " + std::to_string(c.n) + "x" + std::to_string(c.c) + " " +
                   c.reduction + (c.weighted ? " weighted" : "") + " smoothing " + std::to_string(c.smoothing));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor input(dtype, {c.n, c.c}, View::kTransposed);
      const Values x = input.FillRandom(rng, Range{-5, 5});
      std::vector<int64_t> y;
      Values yv;
      for (int64_t i = 0; i < c.n; ++i) {
        const bool ignored = c.ignoreEvery > 0 && i % c.ignoreEvery == 0;
        y.push_back(ignored ? kIgnore : static_cast<int64_t>(rng.Uniform(0, static_cast<double>(c.c) - 0.01)));
        yv.emplace_back(static_cast<double>(y.back()));
      }
      const auto target = Upload(ACL_INT64, {c.n}, yv);
      DeviceTensor weight(ACL_FLOAT, {c.c}, View::kStepped);
      const Values w = weight.FillRandom(rng, Range{0.1, 2});
      const Shape lossShape = c.reduction == "none" ? Shape{c.n} : Shape{1};
      DeviceTensor loss(dtype, lossShape), logProb(dtype, {c.n, c.c}, View::kStepped);
      DeviceTensor zloss(dtype, lossShape), lse(dtype, {c.n});
      zloss.Poison();
      lse.Poison();
      const std::vector<uint8_t> zBefore = zloss.DownloadBytes(), lseBefore = lse.DownloadBytes();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            std::string reduction = c.reduction;
            return aclnnCrossEntropyLossGetWorkspaceSize(
                a.Tensor(input), a.Tensor(*target), c.weighted ? a.Tensor(weight) : nullptr, reduction.data(), kIgnore,
                c.smoothing, 0.0, false, a.Tensor(loss), a.Tensor(logProb), a.Tensor(zloss), a.Tensor(lse), ws, e);
          },
          aclnnCrossEntropyLoss);
      Values wantLogProb, wantLoss;
      Reference(x, y, w, c, wantLogProb, wantLoss);
      ExpectNear(logProb.ReadView(), Near(wantLogProb, dtype, 1), "logProbOut");
      ExpectNear(loss.ReadView(), Near(wantLoss, dtype, 1), "lossOut");
      EXPECT_EQ(zloss.DownloadBytes(), zBefore);
      EXPECT_EQ(lse.DownloadBytes(), lseBefore);
    }
  }
}

// CANN's example: mean loss 1.0937543 and the two rows' log-probabilities.
TEST(CrossEntropyLoss, CannExample) {
  const auto input = Upload(ACL_FLOAT, {2, 5}, {5, 0, 3, 3, 7, 9, 3, 5, 2, 4});
  const auto target = Upload(ACL_INT64, {2}, {0, 0});
  DeviceTensor loss(ACL_FLOAT, {1}), logProb(ACL_FLOAT, {2, 5}), zloss(ACL_FLOAT, {1}), lse(ACL_FLOAT, {2});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        char reduction[] = "mean";
        return aclnnCrossEntropyLossGetWorkspaceSize(a.Tensor(*input), a.Tensor(*target), nullptr, reduction, -100, 0.0,
                                                     0.0, false, a.Tensor(loss), a.Tensor(logProb), a.Tensor(zloss),
                                                     a.Tensor(lse), w, e);
      },
      aclnnCrossEntropyLoss);
  EXPECT_NEAR(loss.ReadView()[0].real(), 1.0937543, 1e-6);
  const std::vector<double> want = {-2.159461,  -7.159461,  -4.159461,  -4.159461,  -0.159461,
                                    -0.0280476, -6.0280476, -4.0280476, -7.0280476, -5.0280476};
  const Values got = logProb.ReadView();
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i].real(), want[i], 1e-5) << i;
}

TEST(CrossEntropyLoss, TargetOutOfRangeIsAStreamError) {
  const auto input = Upload(ACL_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  const auto target = Upload(ACL_INT64, {2}, {1, 3});
  DeviceTensor loss(ACL_FLOAT, {1}), logProb(ACL_FLOAT, {2, 3}), zloss(ACL_FLOAT, {1}), lse(ACL_FLOAT, {2});
  logProb.Poison();
  const std::vector<uint8_t> before = logProb.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnCrossEntropyLossGetWorkspaceSize(a.Tensor(*input), a.Tensor(*target), nullptr, nullptr, -100, 0.0,
                                                     0.0, false, a.Tensor(loss), a.Tensor(logProb), a.Tensor(zloss),
                                                     a.Tensor(lse), w, e);
      },
      aclnnCrossEntropyLoss);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("target[1]"), std::string::npos) << run.message;
  EXPECT_EQ(logProb.DownloadBytes(), before);
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

struct Shapes {
  Shape input = {2, 3}, target = {2}, weight = {3}, loss = {1}, logProb = {2, 3}, zloss = {1}, lse = {2};
};

std::function<aclnnStatus(A&, W, E)> Call(aclDataType dtype, aclDataType targetDtype, aclDataType weightDtype,
                                          aclDataType outDtype, const char* reduction, double smoothing, Shapes s) {
  return [=](A& a, W w, E e) {
    std::string r = reduction;
    return aclnnCrossEntropyLossGetWorkspaceSize(
        a.NewTensor(dtype, s.input), a.NewTensorIn(Range{0, 2}, targetDtype, s.target),
        a.NewTensor(weightDtype, s.weight), r.data(), -100, smoothing, 0.0, false, a.NewTensor(outDtype, s.loss),
        a.NewTensor(dtype, s.logProb), a.NewTensor(dtype, s.zloss), a.NewTensor(dtype, s.lse), w, e);
  };
}

std::vector<RejectionCase> Rejections() {
  const aclDataType f = ACL_FLOAT, l = ACL_INT64;
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
  Shapes badTarget, badWeight, badLoss, badInput, noClasses;
  badTarget.target = {3};
  badWeight.weight = {2};
  badLoss.loss = {2};
  badInput.input = {2, 3, 1};
  noClasses.input = {2, 0};
  noClasses.logProb = {2, 0};
  noClasses.weight = {0};
  return {
      {"double", Call(ACL_DOUBLE, l, f, ACL_DOUBLE, "mean", 0, {}), aclnnCrossEntropyLoss, "'input'"},
      {"target_int32", Call(f, ACL_INT32, f, f, "mean", 0, {}), aclnnCrossEntropyLoss, "'target'"},
      {"weight_f16", Call(f, l, ACL_FLOAT16, f, "mean", 0, {}), aclnnCrossEntropyLoss, "'weightOptional'"},
      {"loss_dtype", Call(f, l, f, ACL_FLOAT16, "mean", 0, {}), aclnnCrossEntropyLoss, "'lossOut'"},
      {"reduction", Call(f, l, f, f, "max", 0, {}), aclnnCrossEntropyLoss, "'reductionOptional'", tiling},
      {"smoothing", Call(f, l, f, f, "mean", 1.5, {}), aclnnCrossEntropyLoss, "'labelSmoothing'", tiling},
      {"input_rank", Call(f, l, f, f, "mean", 0, badInput), aclnnCrossEntropyLoss, "'input'", tiling},
      {"no_classes", Call(f, l, f, f, "mean", 0, noClasses), aclnnCrossEntropyLoss, "'input'", tiling},
      {"target_shape", Call(f, l, f, f, "mean", 0, badTarget), aclnnCrossEntropyLoss, "'target'", tiling},
      {"weight_shape", Call(f, l, f, f, "mean", 0, badWeight), aclnnCrossEntropyLoss, "'weightOptional'", tiling},
      {"loss_shape", Call(f, l, f, f, "mean", 0, badLoss), aclnnCrossEntropyLoss, "'lossOut'", tiling},
  };
}

class CrossEntropyLossRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(CrossEntropyLossRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, CrossEntropyLossRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
