// aclnnApplyTopKTopP (vLLM's top-k / top-p filter): for each row of logits
// [B, V], sorted ascending (stable, so of equal values the lower index comes
// first): with k, every value below the k-th largest becomes -inf (equal ones
// stay; k <= 0 or k >= V keeps all); then with p, the softmax of what is left
// is summed from the smallest, and every position whose running sum is at
// most 1 - p becomes -inf, the largest always kept. Kept values are logits'
// own. p and k are optional (CANN accepts neither: a copy). Computed in FLOAT.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_top_k_top_p.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLogitDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

class TopKTopPStep final : public Step {
 public:
  TopKTopPStep(const TensorRef& logits, std::optional<TensorRef> p, std::optional<TensorRef> k, const TensorRef& out)
      : logits_(logits), p_(std::move(p)), k_(std::move(k)), out_(out) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* logits = reinterpret_cast<const float*>(context.Resolve(logits_.buffer));
    const float* p = p_ ? reinterpret_cast<const float*>(context.Resolve(p_->buffer)) : nullptr;
    const int32_t* k = k_ ? reinterpret_cast<const int32_t*>(context.Resolve(k_->buffer)) : nullptr;
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    const int64_t rows = logits_.shape[0], v = logits_.shape[1];
    constexpr float kMasked = -std::numeric_limits<float>::infinity();
    std::vector<int64_t> order(static_cast<size_t>(v));
    std::vector<float> sorted(static_cast<size_t>(v));
    for (int64_t r = 0; r < rows; ++r) {
      const float* row = logits + r * v;
      float* dst = out + r * v;
      std::copy(row, row + v, dst);
      if (v == 1) continue;
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [row](int64_t a, int64_t b) { return row[a] < row[b]; });
      for (int64_t i = 0; i < v; ++i) sorted[static_cast<size_t>(i)] = row[order[static_cast<size_t>(i)]];
      if (k != nullptr && k[r] > 0 && k[r] < v) {
        const float threshold = sorted[static_cast<size_t>(v - k[r])];
        for (float& value : sorted) value = value < threshold ? kMasked : value;
      }
      if (p != nullptr) {
        const float max = sorted.back();
        float sum = 0.0F;
        for (float value : sorted) sum += std::exp(value - max);
        float running = 0.0F;
        for (int64_t i = 0; i + 1 < v; ++i) {  // the largest is always kept
          running += std::exp(sorted[static_cast<size_t>(i)] - max) / sum;
          if (running <= 1.0F - p[r]) sorted[static_cast<size_t>(i)] = kMasked;
        }
      }
      for (int64_t i = 0; i < v; ++i) {
        if (sorted[static_cast<size_t>(i)] == kMasked) dst[order[static_cast<size_t>(i)]] = kMasked;
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "apply top-k top-p " + ShapeToString(logits_.shape); }

 private:
  TensorRef logits_;
  std::optional<TensorRef> p_, k_;
  TensorRef out_;
};

aclnnStatus PlanApplyTopKTopP(Plan& plan, const aclTensor* logits, const aclTensor* p, const aclTensor* k,
                              const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("logits", logits->dtype, kLogitDtypes));
  if (p != nullptr) CANOPY_CHECK(plan.CheckDtype("p", p->dtype, kLogitDtypes));
  if (k != nullptr) CANOPY_CHECK(plan.CheckDtype("k", k->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kLogitDtypes));
  for (const auto& [name, t] : {std::pair{"p", p}, std::pair{"out", out}}) {
    if (t != nullptr && t->dtype != logits->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be logits' (%s)", name,
                         DtypeName(t->dtype), DtypeName(logits->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckRank("logits", logits, 2, 2));
  CANOPY_CHECK(plan.CheckShape("out", out, logits->view_shape));
  const int64_t rows = logits->view_shape[0];
  for (const auto& [name, t] : {std::pair{"p", p}, std::pair{"k", k}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckShape(name, t, {rows}));
  }
  const TensorRef x = plan.Input(logits, "logits");
  std::optional<TensorRef> top_p, top_k;
  if (p != nullptr) {
    top_p = plan.Input(p, "p");
  } else {
    plan.SkipInput();
  }
  if (k != nullptr) {
    top_k = plan.Input(k, "k");
  } else {
    plan.SkipInput();
  }
  const TensorRef dst = plan.Output(out, "out");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef values = plan.Contiguous(x, ACL_FLOAT);
  std::vector<TensorRef> reads = {values};
  if (top_p) reads.push_back(*(top_p = plan.Contiguous(*top_p, ACL_FLOAT)));
  if (top_k) reads.push_back(*(top_k = plan.Contiguous(*top_k, ACL_INT32)));
  const TensorRef result = plan.Temporary(ACL_FLOAT, x.shape);
  plan.AddStep(std::make_unique<TopKTopPStep>(values, top_p, top_k, result), reads, result);
  plan.Copy(result, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ApplyTopKTopP, PlanApplyTopKTopP,
                (OpTraits{.header = "aclnnop/aclnn_apply_top_k_top_p.h",
                          .dtypes = kLogitDtypes | DtypeSet{ACL_INT32},
                          .example = "f32[3,4] f32[3]{0.2:0.6} i32[3]{1:3} f32[3,4]"}),
                (const aclTensor*, logits), (const aclTensor*, p, optional), (const aclTensor*, k, optional),
                (aclTensor*, out))
