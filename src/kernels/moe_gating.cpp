// MoE gating top-k softmax (see moe_gating.h).
#include "moe_gating.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 16;

class MoeGatingStep final : public Step {
 public:
  explicit MoeGatingStep(const MoeGatingDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(d_.x);
    char* y = context.Resolve(d_.y);
    auto* expert_index = reinterpret_cast<int32_t*>(context.Resolve(d_.expert_index));
    auto* row_index = reinterpret_cast<int32_t*>(context.Resolve(d_.row_index));
    const auto* finished = d_.has_finished ? reinterpret_cast<const uint8_t*>(context.Resolve(d_.finished)) : nullptr;
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.dtype));
    ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> logits(static_cast<size_t>(d_.experts)), top(static_cast<size_t>(d_.k));
      std::vector<int32_t> order(static_cast<size_t>(d_.experts));
      for (int64_t i = begin; i < end; ++i) {
        Load(d_.dtype, x + i * d_.experts * element, 1, d_.experts, logits.data());
        const float max = *std::max_element(logits.begin(), logits.end());
        double sum = 0.0;  // f64: the normaliser does not depend on the summation order's rounding
        for (float v : logits) sum += std::exp(v - max);
        std::iota(order.begin(), order.end(), 0);
        const auto before = [&](int32_t a, int32_t b) {
          return logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)] ||
                 (logits[static_cast<size_t>(a)] == logits[static_cast<size_t>(b)] && a < b);
        };
        std::partial_sort(order.begin(), order.begin() + d_.k, order.end(), before);
        const bool done = finished != nullptr && finished[i] != 0;
        for (int64_t j = 0; j < d_.k; ++j) {
          const int32_t e = order[static_cast<size_t>(j)];
          top[static_cast<size_t>(j)] =
              static_cast<float>(std::exp(static_cast<double>(logits[static_cast<size_t>(e)] - max)) / sum);
          expert_index[i * d_.k + j] = done ? static_cast<int32_t>(d_.experts) : e;
          row_index[i * d_.k + j] = static_cast<int32_t>(j * d_.rows + i);
        }
        Store(top.data(), d_.dtype, y + i * d_.k * element, 1, d_.k);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("moe gating top-k softmax ") + DtypeName(d_.dtype) + " rows=" + std::to_string(d_.rows) +
           " experts=" + std::to_string(d_.experts) + " k=" + std::to_string(d_.k);
  }

 private:
  MoeGatingDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeMoeGatingStep(const MoeGatingDesc& desc) { return std::make_unique<MoeGatingStep>(desc); }

}  // namespace canopy::kernels
