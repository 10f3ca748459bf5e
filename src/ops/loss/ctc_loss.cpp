// aclnnCtcLoss (torch.nn.functional.ctc_loss with reduction "none", the
// forward of torch._ctc_loss): logProbs [T, N, C] (or [T, C], one sample),
// targets [N, S] padded or 1-D concatenated, host inputLengths and
// targetLengths. Per sample, over the target with blanks around and between
// its labels (2L + 1 states), logAlpha[n, t, s] = log of the probability of
// the prefixes reaching state s at time t; negLogLikelihood[n] = -logsumexp
// of the last two states at time inputLengths[n] - 1 (inf where no path
// exists, 0 with zeroInfinity). logAlpha's last dimension is 2 max(L) + 1
// rounded up to a multiple of 8, as CANN's A2 kernel lays it out; states and
// times beyond a sample's own are -inf. CANN checks shapes before dtypes. A
// label outside [0, C) fails the run before anything is written. In double.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_ctc_loss.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/gather.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kProbDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
constexpr DtypeSet kTargetDtypes = {ACL_INT32, ACL_INT64, ACL_BOOL, ACL_FLOAT, ACL_FLOAT16};
constexpr int64_t kAlphaAlignment = 8;
// CANN's A2 kernel limits for 16-bit log-probabilities.
constexpr int64_t kMaxClasses16 = 200000, kMaxBatch16 = 8180, kMaxTarget16 = 1000;

struct CtcParams {
  std::vector<int64_t> input_lengths, target_lengths, target_starts;
  int64_t blank = 0;
  int64_t target_stride = 0;  // 2-D targets: the row length; 1-D: 0 (starts from target_starts)
  bool zero_infinity = false;
};

double LogAdd(double a, double b) {
  if (a == -std::numeric_limits<double>::infinity()) return b;
  if (b == -std::numeric_limits<double>::infinity()) return a;
  const double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

// log_probs [T, N, C] DOUBLE and targets INT64, dense; writes nll [N] and log_alpha [N, T, A] DOUBLE.
class CtcLossStep final : public Step {
 public:
  CtcLossStep(const TensorRef& log_probs, const TensorRef& targets, const TensorRef& nll, const TensorRef& log_alpha,
              CtcParams params)
      : log_probs_(log_probs), targets_(targets), nll_(nll), log_alpha_(log_alpha), p_(std::move(params)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* lp = reinterpret_cast<const double*>(context.Resolve(log_probs_.buffer));
    const auto* targets = reinterpret_cast<const int64_t*>(context.Resolve(targets_.buffer));
    const int64_t t_max = log_probs_.shape[0], n = log_probs_.shape[1], c = log_probs_.shape[2];
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t l = 0; l < p_.target_lengths[static_cast<size_t>(b)]; ++l) {
        const int64_t label = Label(targets, b, l);
        if (label < 0 || label >= c) {
          SetErrorMessage("aclnnCtcLoss: label %lld of sample %lld is %lld, outside [0, %lld)",
                          static_cast<long long>(l), static_cast<long long>(b), static_cast<long long>(label),
                          static_cast<long long>(c));
          return kIndexOutOfRangeStatus;
        }
      }
    }
    auto* nll = reinterpret_cast<double*>(context.Resolve(nll_.buffer));
    auto* alpha = reinterpret_cast<double*>(context.Resolve(log_alpha_.buffer));
    const int64_t a = log_alpha_.shape[2];
    constexpr double kNegInf = -std::numeric_limits<double>::infinity();
    std::fill(alpha, alpha + log_alpha_.NumElements(), kNegInf);
    for (int64_t b = 0; b < n; ++b) {
      const int64_t length = p_.target_lengths[static_cast<size_t>(b)];
      const int64_t steps = p_.input_lengths[static_cast<size_t>(b)];
      const int64_t states = 2 * length + 1;
      auto label_of = [&](int64_t s) { return s % 2 == 0 ? p_.blank : Label(targets, b, s / 2); };
      auto prob = [&](int64_t t, int64_t s) { return lp[(t * n + b) * c + label_of(s)]; };
      double* rows = alpha + b * t_max * a;
      if (steps > 0) {
        rows[0] = prob(0, 0);
        if (states > 1) rows[1] = prob(0, 1);
      }
      for (int64_t t = 1; t < steps; ++t) {
        const double* prev = rows + (t - 1) * a;
        double* cur = rows + t * a;
        for (int64_t s = 0; s < states; ++s) {
          double sum = prev[s];
          if (s >= 1) sum = LogAdd(sum, prev[s - 1]);
          if (s >= 2 && s % 2 == 1 && label_of(s) != label_of(s - 2)) sum = LogAdd(sum, prev[s - 2]);
          cur[s] = sum == kNegInf ? kNegInf : sum + prob(t, s);
        }
      }
      // No input steps: the empty target is certain (loss 0, as PyTorch), any other impossible.
      double loss = length == 0 ? 0.0 : std::numeric_limits<double>::infinity();
      if (steps > 0) {
        const double* last = rows + (steps - 1) * a;
        const double end = states > 1 ? LogAdd(last[states - 1], last[states - 2]) : last[0];
        loss = -end;
      }
      if (p_.zero_infinity && std::isinf(loss)) loss = 0;
      nll[b] = loss;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "ctc loss " + ShapeToString(log_probs_.shape); }

 private:
  int64_t Label(const int64_t* targets, int64_t b, int64_t l) const {
    return p_.target_stride > 0 ? targets[b * p_.target_stride + l]
                                : targets[p_.target_starts[static_cast<size_t>(b)] + l];
  }

  TensorRef log_probs_, targets_, nll_, log_alpha_;
  CtcParams p_;
};

aclnnStatus Invalid(Plan& plan, const std::string& message) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s", message.c_str());
}

aclnnStatus PlanCtcLoss(Plan& plan, const aclTensor* logProbs, const aclTensor* targets,
                        const aclIntArray* inputLengths, const aclIntArray* targetLengths, int64_t blank,
                        bool zeroInfinity, const aclTensor* negLogLikelihoodOut, const aclTensor* logAlphaOut) {
  // Shapes first, as CANN's host code checks them.
  const Shape& lp = logProbs->view_shape;
  if (lp.size() != 2 && lp.size() != 3)
    return Invalid(plan, "'logProbs' has shape " + ShapeToString(lp) + "; it must be [T, N, C] or [T, C]");
  if (lp[0] == 0) return Invalid(plan, "'logProbs' has shape " + ShapeToString(lp) + "; T must not be 0");
  const bool batched = lp.size() == 3;
  const int64_t t_max = lp[0], n = batched ? lp[1] : 1, c = lp.back();
  if (blank < 0 || blank >= c) {
    return Invalid(plan, "argument 'blank' (" + std::to_string(blank) + ") must be in [0, " + std::to_string(c) + ")");
  }
  const std::vector<int64_t>& in_len = inputLengths->values;
  const std::vector<int64_t>& tg_len = targetLengths->values;
  if (static_cast<int64_t>(in_len.size()) != n || static_cast<int64_t>(tg_len.size()) != n) {
    return Invalid(plan, "'inputLengths' and 'targetLengths' hold " + std::to_string(in_len.size()) + " and " +
                             std::to_string(tg_len.size()) + " values; they need one per sample (" + std::to_string(n) +
                             ")");
  }
  for (size_t b = 0; b < in_len.size(); ++b) {
    if (in_len[b] < 0 || in_len[b] > t_max || tg_len[b] < 0) {
      return Invalid(plan, "sample " + std::to_string(b) + " has input length " + std::to_string(in_len[b]) +
                               " and target length " + std::to_string(tg_len[b]) + "; input lengths must be in [0, " +
                               std::to_string(t_max) + "], target lengths not negative");
    }
  }
  const int64_t max_target = tg_len.empty() ? 0 : *std::max_element(tg_len.begin(), tg_len.end());
  const int64_t total_target = std::accumulate(tg_len.begin(), tg_len.end(), int64_t{0});
  const Shape& tg = targets->view_shape;
  const bool padded = tg.size() == 2;
  if (!((padded && tg[0] == n && tg[1] >= max_target) || (tg.size() == 1 && tg[0] == total_target))) {
    return Invalid(plan, "'targets' has shape " + ShapeToString(tg) + "; it must be [N, S >= max target length] or [" +
                             std::to_string(total_target) + "] (the targets concatenated)");
  }
  const Shape nll_shape = batched ? Shape{n} : Shape{};
  CANOPY_CHECK(plan.CheckShape("negLogLikelihoodOut", negLogLikelihoodOut, nll_shape));
  const int64_t states = 2 * max_target + 1;
  const int64_t aligned = (states + kAlphaAlignment - 1) / kAlphaAlignment * kAlphaAlignment;
  CANOPY_CHECK(plan.CheckShape("logAlphaOut", logAlphaOut, {n, t_max, aligned}));
  CANOPY_CHECK(plan.CheckDtype("logProbs", logProbs->dtype, kProbDtypes));
  CANOPY_CHECK(plan.CheckDtype("targets", targets->dtype, kTargetDtypes));
  for (const auto& [name, t] :
       {std::pair{"negLogLikelihoodOut", negLogLikelihoodOut}, std::pair{"logAlphaOut", logAlphaOut}}) {
    if (t->dtype != logProbs->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be logProbs' (%s)", name,
                         DtypeName(t->dtype), DtypeName(logProbs->dtype));
    }
  }
  if ((logProbs->dtype == ACL_FLOAT16 || logProbs->dtype == ACL_BF16) &&
      (c > kMaxClasses16 || n > kMaxBatch16 || max_target > kMaxTarget16)) {
    return Invalid(plan, "16-bit logProbs take at most " + std::to_string(kMaxClasses16) + " classes, " +
                             std::to_string(kMaxBatch16) + " samples and targets of " + std::to_string(kMaxTarget16));
  }
  const TensorRef probs = plan.Input(logProbs, "logProbs");
  const TensorRef labels = plan.Input(targets, "targets");
  const TensorRef nll = plan.Output(negLogLikelihoodOut, "negLogLikelihoodOut");
  const TensorRef alpha = plan.Output(logAlphaOut, "logAlphaOut");
  if (c == 0 || probs.NumElements() == 0) return ACLNN_SUCCESS;  // as CANN: nothing to do
  CtcParams params;
  params.input_lengths = in_len;
  params.target_lengths = tg_len;
  params.blank = blank;
  params.zero_infinity = zeroInfinity;
  if (padded) {
    params.target_stride = tg[1];
  } else {
    params.target_starts.assign(tg_len.size(), 0);
    for (size_t b = 1; b < tg_len.size(); ++b) params.target_starts[b] = params.target_starts[b - 1] + tg_len[b - 1];
  }
  const TensorRef lp64 = *Reshape(plan.Contiguous(probs, ACL_DOUBLE), {t_max, n, c});
  const TensorRef tg64 = plan.Contiguous(labels, ACL_INT64);
  const TensorRef nll64 = plan.Temporary(ACL_DOUBLE, {n});
  const TensorRef alpha64 = plan.Temporary(ACL_DOUBLE, alpha.shape);
  plan.AddStep(std::make_unique<CtcLossStep>(lp64, tg64, nll64, alpha64, std::move(params)), {lp64, tg64}, alpha64);
  plan.Copy(*Reshape(nll64, nll.shape), nll);
  plan.Copy(alpha64, alpha);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(CtcLoss, PlanCtcLoss,
                (OpTraits{.header = "aclnnop/aclnn_ctc_loss.h",
                          .dtypes = kProbDtypes | kTargetDtypes,
                          .example = "f32[6,2,4] i64[2,3]{1:3} ints[6,5] ints[3,2] 0 false f32[2] f32[2,6,8]"}),
                (const aclTensor*, logProbs), (const aclTensor*, targets), (const aclIntArray*, inputLengths),
                (const aclIntArray*, targetLengths), (int64_t, blank), (bool, zeroInfinity),
                (aclTensor*, negLogLikelihoodOut), (aclTensor*, logAlphaOut))
