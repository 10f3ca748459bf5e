// MoE gating: softmax top-k and group-limited top-k (see moe_gating.h).
#include "moe_gating.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "top_order.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 16;

// Sorts the first `count` entries of `order` to the front by `value`, largest first, ties: the lower index.
void TopIndices(const std::vector<float>& value, std::vector<int32_t>& order, int64_t count) {
  const auto before = [&](int32_t a, int32_t b) {
    return TopBefore(value[static_cast<size_t>(a)], a, value[static_cast<size_t>(b)], b);
  };
  std::partial_sort(order.begin(), order.begin() + count, order.end(), before);
}

class MoeGatingStep final : public Step {
 public:
  explicit MoeGatingStep(const MoeGatingDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(d_.x);
    char* y = context.Resolve(d_.y);
    auto* expert_index = reinterpret_cast<int32_t*>(context.Resolve(d_.expert_index));
    auto* row_index = d_.has_row_index ? reinterpret_cast<int32_t*>(context.Resolve(d_.row_index)) : nullptr;
    const auto* finished = d_.has_finished ? reinterpret_cast<const uint8_t*>(context.Resolve(d_.finished)) : nullptr;
    auto* softmax = d_.has_softmax ? reinterpret_cast<float*>(context.Resolve(d_.softmax)) : nullptr;
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.dtype));
    ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> logits(static_cast<size_t>(d_.experts)), top(static_cast<size_t>(d_.k));
      std::vector<int32_t> order(static_cast<size_t>(d_.experts));
      for (int64_t i = begin; i < end; ++i) {
        Load(d_.dtype, x + i * d_.experts * element, 1, d_.experts, logits.data());
        const float max = *std::max_element(logits.begin(), logits.end());
        std::iota(order.begin(), order.end(), 0);
        TopIndices(logits, order, d_.k);
        // f64: the normaliser does not depend on the summation order's rounding
        const auto weight = [&](int32_t e) {
          return std::exp(static_cast<double>(logits[static_cast<size_t>(e)] - max));
        };
        double sum = 0.0;
        if (d_.renorm) {
          for (int64_t j = 0; j < d_.k; ++j) sum += weight(order[static_cast<size_t>(j)]);
        } else {
          for (int32_t e = 0; e < d_.experts; ++e) sum += weight(e);
        }
        if (softmax != nullptr) {
          for (int32_t e = 0; e < d_.experts; ++e) softmax[i * d_.experts + e] = static_cast<float>(weight(e) / sum);
        }
        const bool done = finished != nullptr && finished[i] != 0;
        for (int64_t j = 0; j < d_.k; ++j) {
          const int32_t e = order[static_cast<size_t>(j)];
          top[static_cast<size_t>(j)] = static_cast<float>(weight(e) / sum);
          expert_index[i * d_.k + j] = done ? static_cast<int32_t>(d_.experts) : e;
          if (row_index != nullptr) row_index[i * d_.k + j] = static_cast<int32_t>(j * d_.rows + i);
        }
        Store(top.data(), d_.dtype, y + i * d_.k * element, 1, d_.k);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("moe gating top-k softmax ") + DtypeName(d_.dtype) + " rows=" + std::to_string(d_.rows) +
           " experts=" + std::to_string(d_.experts) + " k=" + std::to_string(d_.k) + (d_.renorm ? " renorm" : "");
  }

 private:
  MoeGatingDesc d_;
};

class MoeGroupGatingStep final : public Step {
 public:
  explicit MoeGroupGatingStep(const MoeGroupGatingDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(d_.x);
    char* y = context.Resolve(d_.y);
    auto* expert_index = reinterpret_cast<int32_t*>(context.Resolve(d_.expert_index));
    auto* norm_out = d_.has_norm ? reinterpret_cast<float*>(context.Resolve(d_.norm)) : nullptr;
    const size_t experts = static_cast<size_t>(d_.experts);
    std::vector<float> bias(experts, 0.0F);
    if (d_.has_bias) Load(d_.dtype, context.Resolve(d_.bias), 1, d_.experts, bias.data());
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t per_group = d_.experts / d_.groups;
    ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> norm(experts), choice(experts), group_score(static_cast<size_t>(d_.groups));
      std::vector<float> members(static_cast<size_t>(per_group)), top(static_cast<size_t>(d_.k));
      std::vector<int32_t> order(experts), group_order(static_cast<size_t>(d_.groups));
      for (int64_t i = begin; i < end; ++i) {
        Load(d_.dtype, x + i * d_.experts * element, 1, d_.experts, norm.data());
        Normalise(norm);
        if (norm_out != nullptr) std::copy(norm.begin(), norm.end(), norm_out + i * d_.experts);
        for (size_t e = 0; e < experts; ++e) choice[e] = norm[e] + bias[e];
        for (int64_t g = 0; g < d_.groups; ++g) {
          const auto first = choice.begin() + g * per_group;
          std::copy(first, first + per_group, members.begin());
          std::partial_sort(members.begin(), members.begin() + (d_.group_by_top2_sum ? 2 : 1), members.end(), TopAbove);
          group_score[static_cast<size_t>(g)] = d_.group_by_top2_sum ? members[0] + members[1] : members[0];
        }
        std::iota(group_order.begin(), group_order.end(), 0);
        TopIndices(group_score, group_order, d_.group_k);
        // Experts of the groups left out never win: they rank below every kept one.
        std::vector<bool> kept(static_cast<size_t>(d_.groups), false);
        for (int64_t g = 0; g < d_.group_k; ++g) kept[static_cast<size_t>(group_order[static_cast<size_t>(g)])] = true;
        std::iota(order.begin(), order.end(), 0);
        const auto before = [&](int32_t a, int32_t b) {
          const bool ka = kept[static_cast<size_t>(a / per_group)], kb = kept[static_cast<size_t>(b / per_group)];
          if (ka != kb) return ka;
          return TopBefore(choice[static_cast<size_t>(a)], a, choice[static_cast<size_t>(b)], b);
        };
        std::partial_sort(order.begin(), order.begin() + d_.k, order.end(), before);
        double sum = 0.0;
        for (int64_t j = 0; j < d_.k; ++j) sum += norm[static_cast<size_t>(order[static_cast<size_t>(j)])];
        const double divisor = d_.sigmoid ? sum + static_cast<double>(d_.eps) : 1.0;
        for (int64_t j = 0; j < d_.k; ++j) {
          const int32_t e = order[static_cast<size_t>(j)];
          top[static_cast<size_t>(j)] =
              static_cast<float>(static_cast<double>(norm[static_cast<size_t>(e)]) / divisor * d_.scale);
          expert_index[i * d_.k + j] = e;
        }
        Store(top.data(), d_.dtype, y + i * d_.k * element, 1, d_.k);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("moe group gating top-k ") + DtypeName(d_.dtype) + " rows=" + std::to_string(d_.rows) +
           " experts=" + std::to_string(d_.experts) + " groups=" + std::to_string(d_.groups) +
           " groupK=" + std::to_string(d_.group_k) + " k=" + std::to_string(d_.k) +
           (d_.sigmoid ? " sigmoid" : " softmax");
  }

 private:
  // The softmax or sigmoid of one row of logits, in place, each value computed in f64 and rounded to f32.
  void Normalise(std::vector<float>& row) const {
    if (d_.sigmoid) {
      for (float& v : row) v = static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(v))));
      return;
    }
    const double max = *std::max_element(row.begin(), row.end());
    double sum = 0.0;
    for (float v : row) sum += std::exp(v - max);
    for (float& v : row) v = static_cast<float>(std::exp(v - max) / sum);
  }

  MoeGroupGatingDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeMoeGatingStep(const MoeGatingDesc& desc) { return std::make_unique<MoeGatingStep>(desc); }

std::unique_ptr<Step> MakeMoeGroupGatingStep(const MoeGroupGatingDesc& desc) {
  return std::make_unique<MoeGroupGatingStep>(desc);
}

}  // namespace canopy::kernels
