// aclnnCrossEntropyLoss (torch.nn.functional.cross_entropy with class-index
// targets): logProbOut = input - logsumexp(input) per row; sample n's loss is
// -w[y_n] * logProb[n, y_n], 0 where y_n is ignoreIndex; with labelSmoothing
// e, (1 - e) times that plus e / C times -sum_c w_c * logProb[n, c] (also 0
// for ignored samples). "mean" divides the sums by the weight of the samples
// not ignored, "sum" sums, "none" keeps [N]. CANN generates this op's entry
// from its definition: dtypes are 161002, shapes and attributes its tiling's
// 561002; on Atlas A2 target is INT64 and weight FLOAT. zlossOut and
// lseForZlossOut must be given but, as on A2, are not written. A target
// outside [0, C) that is not ignoreIndex fails the run before anything is
// written. Computed in double per row, rounded once into the outputs.
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/gather.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};

enum class Reduction : uint8_t { kNone, kMean, kSum };

struct CrossEntropyParams {
  Reduction reduction = Reduction::kMean;
  int64_t ignore_index = -100;
  double label_smoothing = 0;
};

// input [N, C] FLOAT, target [N] INT64, weight [C] FLOAT (optional), all dense;
// writes log_prob [N, C] and loss ([N] or [1]) FLOAT.
class CrossEntropyStep final : public Step {
 public:
  CrossEntropyStep(const TensorRef& input, const TensorRef& target, std::optional<TensorRef> weight,
                   const TensorRef& log_prob, const TensorRef& loss, CrossEntropyParams params)
      : input_(input), target_(target), weight_(std::move(weight)), log_prob_(log_prob), loss_(loss), p_(params) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* x = reinterpret_cast<const float*>(context.Resolve(input_.buffer));
    const auto* y = reinterpret_cast<const int64_t*>(context.Resolve(target_.buffer));
    const float* w = weight_ ? reinterpret_cast<const float*>(context.Resolve(weight_->buffer)) : nullptr;
    auto* log_prob = reinterpret_cast<float*>(context.Resolve(log_prob_.buffer));
    auto* loss = reinterpret_cast<float*>(context.Resolve(loss_.buffer));
    const int64_t n = input_.shape[0], c = input_.shape[1];
    for (int64_t i = 0; i < n; ++i) {
      if (y[i] != p_.ignore_index && (y[i] < 0 || y[i] >= c)) {
        SetErrorMessage("aclnnCrossEntropyLoss: target[%lld] is %lld, outside [0, %lld) and not ignoreIndex %lld",
                        static_cast<long long>(i), static_cast<long long>(y[i]), static_cast<long long>(c),
                        static_cast<long long>(p_.ignore_index));
        return kIndexOutOfRangeStatus;
      }
    }
    const double e = p_.label_smoothing;
    // The smoothing term takes part only when e > 0, as in PyTorch and CANN's
    // kernel: a -inf logit makes it +inf, and 0 x inf would turn the loss NaN.
    const auto smoothed = [e, c](double nll, double smooth) {
      return e > 0 ? (1 - e) * nll + e / static_cast<double>(c) * smooth : nll;
    };
    double nll_sum = 0, smooth_sum = 0, weight_sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const float* row = x + i * c;
      double max = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < c; ++j) max = std::max(max, static_cast<double>(row[j]));
      double sum = 0;
      for (int64_t j = 0; j < c; ++j) sum += std::exp(static_cast<double>(row[j]) - max);
      const double lse = max + std::log(sum);
      double smooth = 0;
      for (int64_t j = 0; j < c; ++j) {
        const double lp = static_cast<double>(row[j]) - lse;
        log_prob[i * c + j] = static_cast<float>(lp);
        smooth -= (w != nullptr ? w[j] : 1.0) * lp;
      }
      double nll = 0;
      if (y[i] == p_.ignore_index) {
        smooth = 0;
      } else {
        const double wy = w != nullptr ? w[y[i]] : 1.0;
        nll = -wy * (static_cast<double>(row[y[i]]) - lse);
        weight_sum += wy;
      }
      if (p_.reduction == Reduction::kNone) {
        loss[i] = static_cast<float>(smoothed(nll, smooth));
      }
      nll_sum += nll;
      smooth_sum += smooth;
    }
    if (p_.reduction == Reduction::kSum) {
      loss[0] = static_cast<float>(smoothed(nll_sum, smooth_sum));
    } else if (p_.reduction == Reduction::kMean) {
      // All samples ignored: 0 / 0, NaN as PyTorch gives.
      loss[0] = static_cast<float>(smoothed(nll_sum, smooth_sum) / weight_sum);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "cross entropy loss " + ShapeToString(input_.shape); }

 private:
  TensorRef input_, target_;
  std::optional<TensorRef> weight_;
  TensorRef log_prob_, loss_;
  CrossEntropyParams p_;
};

aclnnStatus TilingError(Plan& plan, const std::string& message) {
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "%s", message.c_str());
}

aclnnStatus PlanCrossEntropyLoss(Plan& plan, const aclTensor* input, const aclTensor* target,
                                 const aclTensor* weightOptional, char* reductionOptional, int64_t ignoreIndex,
                                 double labelSmoothing, double /*lseSquareScaleForZloss*/, bool /*returnZloss*/,
                                 const aclTensor* lossOut, const aclTensor* logProbOut, const aclTensor* zlossOut,
                                 const aclTensor* lseForZlossOut) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, {ACL_INT64}));
  if (weightOptional != nullptr) CANOPY_CHECK(plan.CheckDtype("weightOptional", weightOptional->dtype, {ACL_FLOAT}));
  for (const auto& [name, t] : {std::pair{"lossOut", lossOut}, std::pair{"logProbOut", logProbOut},
                                std::pair{"zlossOut", zlossOut}, std::pair{"lseForZlossOut", lseForZlossOut}}) {
    if (t->dtype != input->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be input's (%s)", name,
                         DtypeName(t->dtype), DtypeName(input->dtype));
    }
  }
  const std::string reduction = reductionOptional != nullptr ? reductionOptional : "mean";
  CrossEntropyParams params{.ignore_index = ignoreIndex, .label_smoothing = labelSmoothing};
  if (reduction == "none") {
    params.reduction = Reduction::kNone;
  } else if (reduction == "sum") {
    params.reduction = Reduction::kSum;
  } else if (reduction != "mean") {
    return TilingError(plan, "argument 'reductionOptional' is \"" + reduction + "\"; it must be mean, sum or none");
  }
  if (!(labelSmoothing >= 0 && labelSmoothing <= 1)) {
    return TilingError(plan, "argument 'labelSmoothing' (" + std::to_string(labelSmoothing) + ") must be in [0, 1]");
  }
  const Shape& x = input->view_shape;
  if (x.size() != 2 || x[1] <= 0)
    return TilingError(plan, "'input' has shape " + ShapeToString(x) + "; it must be [N, C > 0]");
  const int64_t n = x[0], c = x[1];
  const Shape per_sample = {n};
  const Shape reduced = params.reduction == Reduction::kNone ? per_sample : Shape{1};
  const std::pair<const char*, const aclTensor*> shapes[] = {
      {"target", target},     {"weightOptional", weightOptional}, {"lossOut", lossOut}, {"logProbOut", logProbOut},
      {"zlossOut", zlossOut}, {"lseForZlossOut", lseForZlossOut}};
  const Shape expected[] = {per_sample, {c}, reduced, x, reduced, per_sample};
  for (size_t k = 0; k < std::size(shapes); ++k) {
    const aclTensor* t = shapes[k].second;
    if (t != nullptr && t->view_shape != expected[k]) {
      return TilingError(plan, std::string("'") + shapes[k].first + "' has shape " + ShapeToString(t->view_shape) +
                                   "; input " + ShapeToString(x) + " needs " + ShapeToString(expected[k]));
    }
  }
  const TensorRef logits = plan.Input(input, "input");
  const TensorRef labels = plan.Input(target, "target");
  std::optional<TensorRef> weights;
  if (weightOptional != nullptr) {
    weights = plan.Input(weightOptional, "weightOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef loss = plan.Output(lossOut, "lossOut");
  const TensorRef log_prob = plan.Output(logProbOut, "logProbOut");
  plan.Output(zlossOut, "zlossOut");
  plan.Output(lseForZlossOut, "lseForZlossOut");
  const TensorRef x32 = plan.Contiguous(logits, ACL_FLOAT);
  const TensorRef y64 = plan.Contiguous(labels, ACL_INT64);
  std::vector<TensorRef> reads = {x32, y64};
  if (weights) {
    weights = plan.Contiguous(*weights, ACL_FLOAT);
    reads.push_back(*weights);
  }
  const TensorRef lp = plan.Temporary(ACL_FLOAT, x);
  const TensorRef l = plan.Temporary(ACL_FLOAT, loss.shape);
  plan.AddStep(std::make_unique<CrossEntropyStep>(x32, y64, weights, lp, l, params), reads, lp);
  plan.Copy(lp, log_prob);
  plan.Copy(l, loss);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(CrossEntropyLoss, PlanCrossEntropyLoss,
                (OpTraits{.header = "aclnnop/aclnn_cross_entropy_loss.h",
                          .dtypes = kInputDtypes | DtypeSet{ACL_INT64},
                          .example = "f32[2,5] i64[2]{0:4} - 'mean' -100 0.0 0.0 false f32[1] f32[2,5] f32[1] f32[2]"}),
                (const aclTensor*, input), (const aclTensor*, target), (const aclTensor*, weightOptional, optional),
                (char*, reductionOptional, optional), (int64_t, ignoreIndex), (double, labelSmoothing),
                (double, lseSquareScaleForZloss), (bool, returnZloss), (const aclTensor*, lossOut),
                (const aclTensor*, logProbOut), (const aclTensor*, zlossOut), (const aclTensor*, lseForZlossOut))
