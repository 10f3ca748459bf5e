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
//
// aclnnTopKTopPSampleV2 follows CANN's V2 kernel row by row. topP <= 0 keeps
// the largest; else top-k runs when 1 <= topK <= min(V, ksMax rounded up to 8,
// 1024) and top-p when 0 < topP < 1. The values are the softmax (inputIsLogits:
// over the top-k survivors when top-k ran, else over the row) or the logits as
// given. Top-p keeps the sorted prefix up to the first position where the
// running sum reaches topP. With neither filter the row stays unsorted. minPs
// in (0, 1) keeps the values >= minPs * max, minPs >= 1 the largest only. Then
// the pick (the largest survivor, the position before min-p; with q the argmax
// of value / (|q[i]| + eps), q read by survivor rank), or with
// isNeedSampleResult the survivors' values and positions at the front of
// logitsSortMasked / logitsIdx (zeros after). logitsTopKPSelect (isNeedLogits)
// holds the survivors' logits, -inf elsewhere (0 when !inputIsLogits).
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
#include "aclnnop/aclnn_top_k_top_p_sample_v2.h"
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

// ---- V2.

constexpr DtypeSet kLogitDtypesV2 = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
constexpr int64_t kKsMaxAlignment = 8;  // the tiling rounds ksMax up to a 32-byte block of floats

struct SampleConfigV2 {
  double eps = 0;
  int64_t ks_max = kMaxTopK;  // rounded up to 8, at most 1024
  bool need_logits = false;
  bool input_is_logits = true;
  bool need_sample_result = false;
};

struct SampleTensorsV2 {
  TensorRef logits, k, p;
  std::optional<TensorRef> q, min_p;
  TensorRef index, select, sorted_index, sorted_value;  // temporaries, written whole
};

// Scratch of one thread: the survivors' vocabulary positions and values, in order.
struct RowScratch {
  std::vector<int64_t> order;
  std::vector<double> value;
};

class TopKTopPSampleV2Step final : public Step {
 public:
  TopKTopPSampleV2Step(SampleTensorsV2 tensors, SampleConfigV2 config) : t_(std::move(tensors)), config_(config) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* logits = reinterpret_cast<const float*>(context.Resolve(t_.logits.buffer));
    const auto* k = reinterpret_cast<const int32_t*>(context.Resolve(t_.k.buffer));
    const auto* p = reinterpret_cast<const float*>(context.Resolve(t_.p.buffer));
    const float* q = t_.q ? reinterpret_cast<const float*>(context.Resolve(t_.q->buffer)) : nullptr;
    const float* min_p = t_.min_p ? reinterpret_cast<const float*>(context.Resolve(t_.min_p->buffer)) : nullptr;
    auto* index = reinterpret_cast<int64_t*>(context.Resolve(t_.index.buffer));
    auto* select = reinterpret_cast<float*>(context.Resolve(t_.select.buffer));
    auto* sorted_index = reinterpret_cast<int64_t*>(context.Resolve(t_.sorted_index.buffer));
    auto* sorted_value = reinterpret_cast<float*>(context.Resolve(t_.sorted_value.buffer));
    const int64_t v = t_.logits.shape[1];
    kernels::ParallelFor(t_.logits.shape[0], kRowGrain, 1, [&](int64_t begin, int64_t end) {
      RowScratch scratch;
      for (int64_t r = begin; r < end; ++r) {
        const int64_t row_offset = r * v;
        const float* row = logits + row_offset;
        const int64_t pick = FilterRow(row, v, k[r], p[r], min_p != nullptr ? min_p[r] : 0.0F, scratch);
        const auto kept = static_cast<int64_t>(scratch.order.size());
        if (config_.need_logits) {
          float* out = select + row_offset;
          std::fill(out, out + v, config_.input_is_logits ? -std::numeric_limits<float>::infinity() : 0.0F);
          for (int64_t position : scratch.order) out[position] = row[position];
        }
        if (config_.need_sample_result) {
          std::fill(sorted_index + row_offset, sorted_index + row_offset + v, 0);
          std::fill(sorted_value + row_offset, sorted_value + row_offset + v, 0.0F);
          for (int64_t i = 0; i < kept; ++i) {
            sorted_index[row_offset + i] = scratch.order[static_cast<size_t>(i)];
            sorted_value[row_offset + i] = static_cast<float>(scratch.value[static_cast<size_t>(i)]);
          }
          continue;
        }
        index[r] = q == nullptr ? pick : SampleByQ(scratch, q + row_offset);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "top-k top-p min-p sample v2 " + ShapeToString(t_.logits.shape); }

 private:
  // Leaves the survivors in `s`; returns the position of the largest before min-p.
  int64_t FilterRow(const float* row, int64_t v, int64_t top_k, double top_p, double min_p, RowScratch& s) const {
    const bool by_k = top_k >= 1 && top_k <= std::min(v, config_.ks_max);
    const bool by_p = top_p > 0 && top_p < 1;
    const bool sorted = by_k || by_p || top_p <= 0;
    s.order.resize(static_cast<size_t>(v));
    std::iota(s.order.begin(), s.order.end(), 0);
    int64_t kept = v;
    if (sorted) {
      std::stable_sort(s.order.begin(), s.order.end(), [row](int64_t a, int64_t b) { return row[a] > row[b]; });
      kept = top_p <= 0 ? 1 : by_k ? top_k : v;
    }
    s.order.resize(static_cast<size_t>(kept));
    s.value.resize(static_cast<size_t>(kept));
    for (int64_t i = 0; i < kept; ++i) s.value[static_cast<size_t>(i)] = row[s.order[static_cast<size_t>(i)]];
    if (config_.input_is_logits) {
      // Top-k's softmax covers its survivors; otherwise the whole row.
      const double max = *std::max_element(row, row + v);
      double sum = 0;
      if (by_k || top_p <= 0) {
        for (double x : s.value) sum += std::exp(x - max);
      } else {
        for (int64_t j = 0; j < v; ++j) sum += std::exp(double{row[j]} - max);
      }
      for (double& x : s.value) x = std::exp(x - max) / sum;
    }
    if (by_p) {
      double running = 0;
      for (int64_t i = 0; i < kept; ++i) {
        running += s.value[static_cast<size_t>(i)];
        if (running >= top_p) {
          kept = i + 1;
          break;
        }
      }
      s.order.resize(static_cast<size_t>(kept));
      s.value.resize(static_cast<size_t>(kept));
    }
    const auto largest =
        sorted ? 0 : static_cast<size_t>(std::max_element(s.value.begin(), s.value.end()) - s.value.begin());
    const int64_t pick = s.order[largest];
    if (min_p >= 1) {
      const double value = s.value[largest];
      s.order.assign(1, pick);
      s.value.assign(1, value);
    } else if (min_p > 0) {
      const double threshold = min_p * s.value[largest];
      size_t out = 0;
      for (size_t i = 0; i < s.value.size(); ++i) {
        if (s.value[i] < threshold) continue;
        s.order[out] = s.order[i];
        s.value[out++] = s.value[i];
      }
      // None at or above the threshold (only negative values as given): CANN's kernel keeps the list.
      if (out > 0) {
        s.order.resize(out);
        s.value.resize(out);
      }
    }
    return pick;
  }

  // The survivor whose value / (|q[rank]| + eps) is largest, the first of equals.
  int64_t SampleByQ(const RowScratch& s, const float* q) const {
    size_t best = 0;
    double best_score = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < s.value.size(); ++i) {
      const double score = s.value[i] / (std::abs(static_cast<double>(q[i])) + config_.eps);
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    return s.order[best];
  }

  SampleTensorsV2 t_;
  SampleConfigV2 config_;
};

aclnnStatus CheckSameDtype(Plan& plan, const char* name, const aclTensor* t, const aclTensor* logits) {
  if (t->dtype == logits->dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be logits' (%s)", name, DtypeName(t->dtype),
                     DtypeName(logits->dtype));
}

aclnnStatus PlanTopKTopPSampleV2(Plan& plan, const aclTensor* logits, const aclTensor* topK, const aclTensor* topP,
                                 const aclTensor* q, const aclTensor* minPs, double eps, bool isNeedLogits,
                                 int64_t topKGuess, int64_t ksMax, bool inputIsLogits, bool isNeedSampleResult,
                                 const aclTensor* logitsSelectIdx, const aclTensor* logitsTopKPSelect,
                                 const aclTensor* logitsIdx, const aclTensor* logitsSortMasked) {
  static_cast<void>(topKGuess);  // how many candidates the kernel tries first for top-p: no effect on the result
  // The generated entry's dtype table (161002): topP and minPs share logits' column.
  CANOPY_CHECK(plan.CheckDtype("logits", logits->dtype, kLogitDtypesV2));
  CANOPY_CHECK(plan.CheckDtype("topK", topK->dtype, {ACL_INT32}));
  CANOPY_CHECK(CheckSameDtype(plan, "topP", topP, logits));
  if (q != nullptr) CANOPY_CHECK(plan.CheckDtype("q", q->dtype, {ACL_FLOAT}));
  if (minPs != nullptr) CANOPY_CHECK(CheckSameDtype(plan, "minPs", minPs, logits));
  CANOPY_CHECK(plan.CheckDtype("logitsSelectIdx", logitsSelectIdx->dtype, {ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("logitsTopKPSelect", logitsTopKPSelect->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("logitsIdx", logitsIdx->dtype, {ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("logitsSortMasked", logitsSortMasked->dtype, {ACL_FLOAT}));
  // The tiling's checks (561002); an output's shape only where its mode writes it.
  const Shape& ls = logits->view_shape;
  if (ls.size() != 2 || ls[0] == 0 || ls[1] == 0) return RejectShape(plan, "logits", logits, "[B, V], not empty");
  if (ls[1] > kMaxVocabulary) return RejectShape(plan, "logits", logits, "at most 1048576 wide");
  const Shape rows = {ls[0]};
  const std::string rows_text = ShapeToString(rows);
  const std::string full_text = ShapeToString(ls);
  if (topK->view_shape != rows) return RejectShape(plan, "topK", topK, rows_text);
  if (topP->view_shape != rows) return RejectShape(plan, "topP", topP, rows_text);
  if (q != nullptr && isNeedSampleResult) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'q' must be null when isNeedSampleResult is true");
  }
  if (q != nullptr && q->view_shape != ls) return RejectShape(plan, "q", q, full_text);
  if (minPs != nullptr && minPs->view_shape != rows) return RejectShape(plan, "minPs", minPs, rows_text);
  if (isNeedLogits && logitsTopKPSelect->view_shape != ls) {
    return RejectShape(plan, "logitsTopKPSelect", logitsTopKPSelect, full_text);
  }
  if (!isNeedSampleResult && logitsSelectIdx->view_shape != rows) {
    return RejectShape(plan, "logitsSelectIdx", logitsSelectIdx, rows_text);
  }
  if (isNeedSampleResult && logitsIdx->view_shape != ls) return RejectShape(plan, "logitsIdx", logitsIdx, full_text);
  if (isNeedSampleResult && logitsSortMasked->view_shape != ls) {
    return RejectShape(plan, "logitsSortMasked", logitsSortMasked, full_text);
  }

  SampleTensorsV2 t;
  t.logits = plan.Contiguous(plan.Input(logits, "logits"), ACL_FLOAT);
  t.k = plan.Contiguous(plan.Input(topK, "topK"), ACL_INT32);
  t.p = plan.Contiguous(plan.Input(topP, "topP"), ACL_FLOAT);
  if (q != nullptr) {
    t.q = plan.Contiguous(plan.Input(q, "q"), ACL_FLOAT);
  } else {
    plan.SkipInput();
  }
  if (minPs != nullptr) {
    t.min_p = plan.Contiguous(plan.Input(minPs, "minPs"), ACL_FLOAT);
  } else {
    plan.SkipInput();
  }
  const TensorRef index_out = plan.Output(logitsSelectIdx, "logitsSelectIdx");
  const TensorRef select_out = plan.Output(logitsTopKPSelect, "logitsTopKPSelect");
  const TensorRef sorted_index_out = plan.Output(logitsIdx, "logitsIdx");
  const TensorRef sorted_value_out = plan.Output(logitsSortMasked, "logitsSortMasked");
  const Shape none = {0, ls[1]};
  t.index = plan.Temporary(ACL_INT64, isNeedSampleResult ? Shape{0} : rows);
  t.select = plan.Temporary(ACL_FLOAT, isNeedLogits ? ls : none);
  t.sorted_index = plan.Temporary(ACL_INT64, isNeedSampleResult ? ls : none);
  t.sorted_value = plan.Temporary(ACL_FLOAT, isNeedSampleResult ? ls : none);
  // The tiling reads ksMax as 32 bits and rounds it up to a block of 8 floats, at most 1024.
  const int64_t ks_max = std::min(kMaxTopK, (static_cast<int64_t>(static_cast<uint32_t>(ksMax)) + kKsMaxAlignment - 1) /
                                                kKsMaxAlignment * kKsMaxAlignment);
  const SampleConfigV2 config{.eps = static_cast<float>(eps),
                              .ks_max = ks_max,
                              .need_logits = isNeedLogits,
                              .input_is_logits = inputIsLogits,
                              .need_sample_result = isNeedSampleResult};
  const SampleTensorsV2 temps = t;
  plan.AddStep(std::make_unique<TopKTopPSampleV2Step>(std::move(t), config));
  if (!isNeedSampleResult) plan.Copy(temps.index, index_out);
  if (isNeedLogits) plan.Copy(temps.select, select_out);
  if (isNeedSampleResult) {
    plan.Copy(temps.sorted_index, sorted_index_out);
    plan.Copy(temps.sorted_value, sorted_value_out);
  }
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

CANOPY_ACLNN_OP(TopKTopPSampleV2, PlanTopKTopPSampleV2,
                (OpTraits{.header = "aclnnop/aclnn_top_k_top_p_sample_v2.h",
                          .dtypes = kLogitDtypesV2 | DtypeSet{ACL_INT32, ACL_INT64},
                          .example = "f16[3,8] i32[3]{1:4} f16[3]{0.2:0.9} f32[3,8]{0.5:2} f16[3]{0:0.5} 1e-8 true 32 "
                                     "1024 true false i64[3] f32[3,8] i64[3,8] f32[3,8]"}),
                (const aclTensor*, logits), (const aclTensor*, topK), (const aclTensor*, topP),
                (const aclTensor*, q, optional), (const aclTensor*, minPs, optional), (double, eps),
                (bool, isNeedLogits), (int64_t, topKGuess), (int64_t, ksMax), (bool, inputIsLogits),
                (bool, isNeedSampleResult), (const aclTensor*, logitsSelectIdx), (const aclTensor*, logitsTopKPSelect),
                (const aclTensor*, logitsIdx), (const aclTensor*, logitsSortMasked))
