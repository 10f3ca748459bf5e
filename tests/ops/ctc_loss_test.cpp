// CtcLoss through the public API against a brute-force float64 reference
// that sums over every path of states (blank, label, blank, ...): the
// negative log-likelihood and every log alpha, padded and concatenated
// targets, repeated labels, a non-zero blank, samples with shorter inputs,
// impossible alignments (inf, or 0 with zeroInfinity), inputs of no steps (0
// for an empty target, as PyTorch), 2-D logProbs, every
// logProbs dtype, strided views, a label out of range (a stream error) and
// the rejections (shapes checked before dtypes, as CANN does).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_ctc_loss.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct CtcCase {
  int64_t t, n, c;
  std::vector<std::vector<int64_t>> targets;
  std::vector<int64_t> inputLengths;
  int64_t blank;
  bool padded, zeroInfinity, batched;
};

int64_t Aligned(int64_t states) { return (states + 7) / 8 * 8; }

// alpha[t][s] by summing the probabilities of every state path reaching (t, s).
void BruteForce(const Values& lp, const CtcCase& c, int64_t b, std::vector<std::vector<double>>& alpha, double& nll) {
  const std::vector<int64_t>& target = c.targets[static_cast<size_t>(b)];
  const auto states = static_cast<int64_t>(2 * target.size() + 1);
  auto label = [&](int64_t s) { return s % 2 == 0 ? c.blank : target[static_cast<size_t>(s / 2)]; };
  auto prob = [&](int64_t t, int64_t s) {
    return std::exp(lp[static_cast<size_t>((t * c.n + b) * c.c + label(s))].real());
  };
  const int64_t steps = c.inputLengths[static_cast<size_t>(b)];
  alpha.assign(static_cast<size_t>(c.t), std::vector<double>(static_cast<size_t>(states), 0));
  std::function<void(int64_t, int64_t, double)> walk = [&](int64_t t, int64_t s, double p) {
    p *= prob(t, s);
    alpha[static_cast<size_t>(t)][static_cast<size_t>(s)] += p;
    if (t + 1 == steps) return;
    for (int64_t next = s; next <= s + 2 && next < states; ++next) {
      if (next == s + 2 && (next % 2 == 0 || label(next) == label(s))) continue;
      walk(t + 1, next, p);
    }
  };
  if (steps > 0) {
    walk(0, 0, 1);
    if (states > 1) walk(0, 1, 1);
  }
  double end = steps == 0 && target.empty() ? 1 : 0;  // no steps: only the empty target is certain
  if (steps > 0) {
    end = alpha[static_cast<size_t>(steps - 1)][static_cast<size_t>(states - 1)];
    if (states > 1) end += alpha[static_cast<size_t>(steps - 1)][static_cast<size_t>(states - 2)];
  }
  nll = -std::log(end);
  if (c.zeroInfinity && std::isinf(nll)) nll = 0;
}

TEST(CtcLoss, MatchesBruteForce) {
  const std::vector<CtcCase> cases = {
      {5, 2, 3, {{1, 2}, {1, 1}}, {5, 4}, 0, true, false, true},
      {4, 3, 4, {{3}, {1, 2, 1}, {}}, {4, 4, 2}, 0, false, false, true},
      {5, 2, 3, {{0, 0}, {2}}, {5, 5}, 1, true, false, true},         // blank 1, a repeated label
      {3, 2, 3, {{1, 1, 2}, {2, 2}}, {3, 3}, 0, true, true, true},    // too short: 0 with zeroInfinity
      {3, 2, 3, {{1, 1, 2}, {2}}, {3, 2}, 0, false, false, true},     // too short: inf
      {4, 1, 3, {{2, 1}}, {4}, 0, true, false, false},                // 2-D logProbs
      {3, 3, 3, {{}, {1}, {2, 1}}, {0, 0, 3}, 0, true, false, true},  // no input steps: 0 for no labels, else inf
  };
  for (aclDataType dtype : {ACL_FLOAT, ACL_DOUBLE, ACL_FLOAT16, ACL_BF16}) {
    for (size_t k = 0; k < cases.size(); ++k) {
      const CtcCase& c = cases[k];
      SCOPED_TRACE(std::string(Name(dtype)) + " case " + std::to_string(k));
      Rng rng = Rng::ForCurrentTest();
      // Log-probabilities of a softmax per (t, n).
      Values lp;
      for (int64_t i = 0; i < c.t * c.n; ++i) {
        std::vector<double> z;
        double sum = 0;
        for (int64_t j = 0; j < c.c; ++j) sum += std::exp(z.emplace_back(rng.Uniform(-2, 2)));
        for (double v : z) lp.push_back(ConvertValue(v - std::log(sum), dtype));
      }
      const Shape lpShape = c.batched ? Shape{c.t, c.n, c.c} : Shape{c.t, c.c};
      DeviceTensor logProbs(dtype, lpShape, View::kStepped);
      logProbs.WriteView(lp);
      std::vector<int64_t> targetLengths;
      int64_t maxLen = 0, total = 0;
      for (const auto& t : c.targets) {
        targetLengths.push_back(static_cast<int64_t>(t.size()));
        maxLen = std::max(maxLen, static_cast<int64_t>(t.size()));
        total += static_cast<int64_t>(t.size());
      }
      Values tv;
      for (const auto& t : c.targets) {
        for (int64_t j = 0; j < (c.padded ? std::max<int64_t>(maxLen, 1) : static_cast<int64_t>(t.size())); ++j) {
          tv.emplace_back(j < static_cast<int64_t>(t.size()) ? static_cast<double>(t[static_cast<size_t>(j)]) : 0.0);
        }
      }
      const auto targets = Upload(k % 2 == 0 ? ACL_INT64 : ACL_INT32,
                                  c.padded ? Shape{c.n, std::max<int64_t>(maxLen, 1)} : Shape{total}, tv);
      const int64_t width = Aligned(2 * maxLen + 1);
      DeviceTensor nll(dtype, c.batched ? Shape{c.n} : Shape{}), alpha(dtype, {c.n, c.t, width}, View::kTransposed);
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnCtcLossGetWorkspaceSize(a.Tensor(logProbs), a.Tensor(*targets), a.IntArray(c.inputLengths),
                                                a.IntArray(targetLengths), c.blank, c.zeroInfinity, a.Tensor(nll),
                                                a.Tensor(alpha), w, e);
          },
          aclnnCtcLoss);
      const Values gotNll = nll.ReadView(), gotAlpha = alpha.ReadView();
      const double tolerance = dtype == ACL_DOUBLE ? 1e-9 : 8 * UnitRoundoff(dtype == ACL_FLOAT ? ACL_FLOAT : dtype);
      for (int64_t b = 0; b < c.n; ++b) {
        std::vector<std::vector<double>> want;
        double wantNll = 0;
        BruteForce(lp, c, b, want, wantNll);
        const double got = gotNll[static_cast<size_t>(b)].real();
        if (std::isinf(wantNll)) {
          EXPECT_EQ(got, kInf) << "sample " << b;
        } else {
          EXPECT_NEAR(got, wantNll, tolerance * std::max(std::abs(wantNll), 1.0) * 4) << "sample " << b;
        }
        for (int64_t t = 0; t < c.t; ++t) {
          for (int64_t s = 0; s < width; ++s) {
            const double value = gotAlpha[static_cast<size_t>((b * c.t + t) * width + s)].real();
            const bool inside = t < c.inputLengths[static_cast<size_t>(b)] &&
                                s < static_cast<int64_t>(want[static_cast<size_t>(t)].size());
            const double p = inside ? want[static_cast<size_t>(t)][static_cast<size_t>(s)] : 0;
            if (p == 0) {
              ASSERT_EQ(value, -kInf) << "sample " << b << " t " << t << " s " << s;
            } else {
              ASSERT_NEAR(value, std::log(p), tolerance * std::max(std::abs(std::log(p)), 1.0) * 4)
                  << "sample " << b << " t " << t << " s " << s;
            }
          }
        }
      }
    }
  }
}

TEST(CtcLoss, LabelOutOfRangeIsAStreamError) {
  const auto logProbs = Upload(ACL_FLOAT, {3, 1, 3}, Values(9, Value(-1.0986)));
  const auto targets = Upload(ACL_INT64, {1, 2}, {1, 3});
  DeviceTensor nll(ACL_FLOAT, {1}), alpha(ACL_FLOAT, {1, 3, 8});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnCtcLossGetWorkspaceSize(a.Tensor(*logProbs), a.Tensor(*targets), a.IntArray({3}), a.IntArray({2}),
                                            0, false, a.Tensor(nll), a.Tensor(alpha), w, e);
      },
      aclnnCtcLoss);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("label 1 of sample 0"), std::string::npos) << run.message;
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

struct CtcArgs {
  aclDataType probs = ACL_FLOAT, targets = ACL_INT64, out = ACL_FLOAT;
  Shape probsShape = {4, 2, 3}, targetsShape = {2, 2}, nll = {2}, alpha = {2, 4, 8};
  std::vector<int64_t> inputLengths = {4, 4}, targetLengths = {2, 1};
  int64_t blank = 0;
};

std::function<aclnnStatus(A&, W, E)> Call(CtcArgs c) {
  return [=](A& a, W w, E e) {
    return aclnnCtcLossGetWorkspaceSize(a.NewTensor(c.probs, c.probsShape),
                                        a.NewTensorIn(Range{1, 2}, c.targets, c.targetsShape),
                                        a.IntArray(c.inputLengths), a.IntArray(c.targetLengths), c.blank, false,
                                        a.NewTensor(c.out, c.nll), a.NewTensor(c.out, c.alpha), w, e);
  };
}

std::vector<RejectionCase> Rejections() {
  std::vector<RejectionCase> cases;
  auto add = [&](const char* name, const char* keyword, auto change) {
    CtcArgs c;
    change(c);
    cases.push_back({name, Call(c), aclnnCtcLoss, keyword});
  };
  add("probs_rank4", "'logProbs'", [](CtcArgs& c) { c.probsShape = {4, 2, 3, 1}; });
  add("no_time", "'logProbs'", [](CtcArgs& c) {
    c.probsShape = {0, 2, 3};
    c.alpha = {2, 0, 8};
    c.inputLengths = {0, 0};
  });
  add("blank", "'blank'", [](CtcArgs& c) { c.blank = 3; });
  add("lengths_count", "'inputLengths'", [](CtcArgs& c) { c.inputLengths = {4}; });
  add("input_too_long", "input length", [](CtcArgs& c) { c.inputLengths = {5, 4}; });
  add("targets_narrow", "'targets'", [](CtcArgs& c) { c.targetLengths = {3, 1}; });
  add("targets_1d_sum", "'targets'", [](CtcArgs& c) { c.targetsShape = {4}; });
  add("nll_shape", "'negLogLikelihoodOut'", [](CtcArgs& c) { c.nll = {}; });
  add("alpha_unaligned", "'logAlphaOut'", [](CtcArgs& c) { c.alpha = {2, 4, 5}; });
  add("probs_int", "'logProbs'", [](CtcArgs& c) { c.probs = c.out = ACL_INT32; });
  add("targets_uint8", "'targets'", [](CtcArgs& c) { c.targets = ACL_UINT8; });
  add("out_dtype", "'negLogLikelihoodOut'", [](CtcArgs& c) { c.out = ACL_DOUBLE; });
  // Shapes before dtypes: a bad blank wins over a bad dtype.
  add("shape_first", "'blank'", [](CtcArgs& c) {
    c.blank = -1;
    c.probs = ACL_INT32;
  });
  return cases;
}

class CtcLossRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(CtcLossRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, CtcLossRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
