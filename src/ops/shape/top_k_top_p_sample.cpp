// aclnnTopKTopPSample (an LLM sampler's last step): for each row of logits
// [B, V], sorted descending (stable: of equal logits the lower index first),
// keep the topK[b] largest when 1 <= topK[b] <= min(V, 1024); then, when
// topP[b] < 1, keep the shortest prefix whose softmax mass before each kept
// position is at most topP[b] (the largest always stays). The pick is the
// argmax of the survivors' softmax, divided by |q| + eps when q is given, q
// read by sorted rank (by vocabulary position when neither filter ran, as
// CANN's kernel reads it); with q null the pick is the largest logit. With
// isNeedLogits the survivors' logits go to logitsTopKPSelect at their
// positions, -inf elsewhere. CANN generates the entry and checks in tiling:
// dtypes outside its table are 161002, shapes 561002. Computed in double.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_top_k_top_p_sample.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLogitDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxTopK = 1024;
constexpr int64_t kMaxVocabulary = 1 << 20;
constexpr int64_t kRowGrain = 4;

struct SampleConfig {
  double eps = 0;
  bool need_logits = false;
};

class TopKTopPSampleStep final : public Step {
 public:
  TopKTopPSampleStep(const TensorRef& logits, const TensorRef& k, const TensorRef& p, std::optional<TensorRef> q,
                     const TensorRef& index, const TensorRef& select, SampleConfig config)
      : logits_(logits), k_(k), p_(p), q_(std::move(q)), index_(index), select_(select), config_(config) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* logits = reinterpret_cast<const float*>(context.Resolve(logits_.buffer));
    const auto* k = reinterpret_cast<const int32_t*>(context.Resolve(k_.buffer));
    const auto* p = reinterpret_cast<const float*>(context.Resolve(p_.buffer));
    const float* q = q_ ? reinterpret_cast<const float*>(context.Resolve(q_->buffer)) : nullptr;
    auto* index = reinterpret_cast<int64_t*>(context.Resolve(index_.buffer));
    auto* select = reinterpret_cast<float*>(context.Resolve(select_.buffer));
    const int64_t v = logits_.shape[1];
    kernels::ParallelFor(logits_.shape[0], kRowGrain, 1, [&](int64_t begin, int64_t end) {
      std::vector<int64_t> order(static_cast<size_t>(v));
      for (int64_t r = begin; r < end; ++r) {
        const float* row = logits + r * v;
        const float* q_row = q != nullptr ? q + r * v : nullptr;
        index[r] = SampleRow(row, v, k[r], p[r], q_row, order, config_.need_logits ? select + r * v : nullptr);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "top-k top-p sample " + ShapeToString(logits_.shape); }

 private:
  // The sampled position of one row; `order` is scratch of V entries.
  int64_t SampleRow(const float* row, int64_t v, int64_t top_k, double top_p, const float* q,
                    std::vector<int64_t>& order, float* select) const {
    const bool by_k = top_k >= 1 && top_k <= std::min(v, kMaxTopK);
    const bool by_p = top_p < 1;
    std::iota(order.begin(), order.end(), 0);
    int64_t kept = v;
    if (by_k || by_p) {
      std::stable_sort(order.begin(), order.end(), [row](int64_t a, int64_t b) { return row[a] > row[b]; });
      if (by_k) kept = top_k;
      if (by_p) {
        const double max = row[order[0]];
        double sum = 0;
        for (int64_t i = 0; i < kept; ++i) sum += std::exp(row[order[static_cast<size_t>(i)]] - max);
        double before = 0;
        int64_t i = 1;
        for (; i < kept; ++i) {
          before += std::exp(row[order[static_cast<size_t>(i - 1)]] - max) / sum;
          if (before > top_p) break;
        }
        kept = i;
      }
    }
    if (select != nullptr) {
      std::fill(select, select + v, -std::numeric_limits<float>::infinity());
      for (int64_t i = 0; i < kept; ++i) select[order[static_cast<size_t>(i)]] = row[order[static_cast<size_t>(i)]];
    }
    if (q == nullptr) {  // the softmax's argmax: the largest survivor, the first of equals
      int64_t best = 0;
      for (int64_t i = 1; i < kept; ++i) {
        if (row[order[static_cast<size_t>(i)]] > row[order[static_cast<size_t>(best)]]) best = i;
      }
      return order[static_cast<size_t>(best)];
    }
    double max = -std::numeric_limits<double>::infinity(), sum = 0;
    for (int64_t i = 0; i < kept; ++i) max = std::max<double>(max, row[order[static_cast<size_t>(i)]]);
    for (int64_t i = 0; i < kept; ++i) sum += std::exp(row[order[static_cast<size_t>(i)]] - max);
    int64_t best = 0;
    double best_score = -1;
    for (int64_t i = 0; i < kept; ++i) {
      const double prob = std::exp(row[order[static_cast<size_t>(i)]] - max) / sum;
      const double score = prob / (std::abs(static_cast<double>(q[i])) + config_.eps);
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    return order[static_cast<size_t>(best)];
  }

  TensorRef logits_, k_, p_;
  std::optional<TensorRef> q_;
  TensorRef index_, select_;
  SampleConfig config_;
};

aclnnStatus RejectShape(Plan& plan, const char* name, const aclTensor* t, const std::string& want) {
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'%s' has shape %s; it must be %s", name,
                     ShapeToString(t->view_shape).c_str(), want.c_str());
}

aclnnStatus PlanTopKTopPSample(Plan& plan, const aclTensor* logits, const aclTensor* topK, const aclTensor* topP,
                               const aclTensor* q, double eps, bool isNeedLogits, int64_t topKGuess,
                               const aclTensor* logitsSelectIdx, const aclTensor* logitsTopKPSelect) {
  static_cast<void>(topKGuess);  // how many candidates the kernel tries first for top-p: no effect on the result
  CANOPY_CHECK(plan.CheckDtype("logits", logits->dtype, kLogitDtypes));
  CANOPY_CHECK(plan.CheckDtype("topK", topK->dtype, {ACL_INT32}));
  if (topP->dtype != logits->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'topP' has dtype %s; it must be logits' (%s)", DtypeName(topP->dtype),
                       DtypeName(logits->dtype));
  }
  if (q != nullptr) CANOPY_CHECK(plan.CheckDtype("q", q->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("logitsSelectIdx", logitsSelectIdx->dtype, {ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("logitsTopKPSelect", logitsTopKPSelect->dtype, {ACL_FLOAT}));
  const Shape& ls = logits->view_shape;
  if (ls.size() != 2 || ls[0] == 0 || ls[1] == 0) return RejectShape(plan, "logits", logits, "[B, V], not empty");
  if (ls[1] > kMaxVocabulary) return RejectShape(plan, "logits", logits, "at most 1048576 wide");
  const Shape rows = {ls[0]};
  const std::string rows_text = ShapeToString(rows);
  if (topK->view_shape != rows) return RejectShape(plan, "topK", topK, rows_text);
  if (topP->view_shape != rows) return RejectShape(plan, "topP", topP, rows_text);
  if (q != nullptr && q->view_shape != ls) return RejectShape(plan, "q", q, ShapeToString(ls));
  if (logitsTopKPSelect->view_shape != ls) {
    return RejectShape(plan, "logitsTopKPSelect", logitsTopKPSelect, ShapeToString(ls));
  }
  if (logitsSelectIdx->view_shape != rows) return RejectShape(plan, "logitsSelectIdx", logitsSelectIdx, rows_text);

  const TensorRef x = plan.Contiguous(plan.Input(logits, "logits"), ACL_FLOAT);
  const TensorRef k = plan.Contiguous(plan.Input(topK, "topK"), ACL_INT32);
  const TensorRef p = plan.Contiguous(plan.Input(topP, "topP"), ACL_FLOAT);
  std::optional<TensorRef> weights;
  if (q != nullptr) {
    weights = plan.Contiguous(plan.Input(q, "q"), ACL_FLOAT);
  } else {
    plan.SkipInput();
  }
  const TensorRef index_out = plan.Output(logitsSelectIdx, "logitsSelectIdx");
  const TensorRef select_out = plan.Output(logitsTopKPSelect, "logitsTopKPSelect");
  const TensorRef index = plan.Temporary(ACL_INT64, rows);
  const TensorRef select = plan.Temporary(ACL_FLOAT, isNeedLogits ? ls : Shape{0, ls[1]});
  std::vector<TensorRef> reads = {x, k, p};
  if (weights) reads.push_back(*weights);
  plan.AddStep(std::make_unique<TopKTopPSampleStep>(x, k, p, weights, index, select,
                                                    SampleConfig{.eps = eps, .need_logits = isNeedLogits}),
               reads, index);
  plan.Copy(index, index_out);
  if (isNeedLogits) plan.Copy(select, select_out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(TopKTopPSample, PlanTopKTopPSample,
                (OpTraits{
                    .header = "aclnnop/aclnn_top_k_top_p_sample.h",
                    .dtypes = kLogitDtypes | DtypeSet{ACL_INT32, ACL_FLOAT, ACL_INT64},
                    .example = "f16[3,8] i32[3]{1:4} f16[3]{0.2:0.9} f32[3,8]{0.5:2} 1e-8 true 32 i64[3] f32[3,8]"}),
                (const aclTensor*, logits), (const aclTensor*, topK), (const aclTensor*, topP),
                (const aclTensor*, q, optional), (double, eps), (bool, isNeedLogits), (int64_t, topKGuess),
                (const aclTensor*, logitsSelectIdx), (const aclTensor*, logitsTopKPSelect))
