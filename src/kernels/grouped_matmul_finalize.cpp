// GroupedMatmulFinalizeRouting's A8W4 and A8W8 products and scatter (see grouped_matmul_finalize.h).
#include "grouped_matmul_finalize.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 2;
constexpr int64_t kColumnGrain = 256;
constexpr int32_t kLowShift = 8;  // the kernel's low int4 part is x's low nibble minus 8
constexpr uint8_t kNibbleMask = 0x0F;
constexpr int kNibbleBits = 4;
constexpr int kNibbleSign = 8;  // a nibble at or above this is negative

int8_t Int4At(const uint8_t* packed, int64_t index) {
  const uint8_t byte = packed[index / 2];
  const int nibble = (index % 2 == 0) ? (byte & kNibbleMask) : (byte >> kNibbleBits);
  return static_cast<int8_t>(nibble >= kNibbleSign ? nibble - 2 * kNibbleSign : nibble);
}

float LowWordAsFloat(const char* words, int64_t index) {
  uint64_t word = 0;
  std::memcpy(&word, words + index * static_cast<int64_t>(sizeof word), sizeof word);
  const auto bits = static_cast<uint32_t>(word & 0xFFFFFFFFu);
  float value = 0.0f;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

class GroupedMatmulFinalizeStep final : public Step {
 public:
  explicit GroupedMatmulFinalizeStep(const GroupedMatmulFinalizeDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* counts = reinterpret_cast<const int64_t*>(context.Resolve(d_.group_list));
    const auto* row_index = reinterpret_cast<const int64_t*>(context.Resolve(d_.row_index));
    int64_t computed = 0;
    for (int64_t e = 0; e < d_.experts; ++e) {
      computed += std::max<int64_t>(counts[e], 0);
      if (computed > d_.m) {
        SetErrorMessage("%s: the counts of 'groupListOptional' add up to more than x's %lld rows (at expert %lld)",
                        d_.op, static_cast<long long>(d_.m), static_cast<long long>(e));
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
    }
    for (int64_t r = 0; r < computed; ++r) {
      if (row_index[r] < 0 || row_index[r] >= d_.rows) {
        SetErrorMessage("%s: element %lld of 'rowIndexOptional' is %lld, outside [0, %lld)", d_.op,
                        static_cast<long long>(r), static_cast<long long>(row_index[r]),
                        static_cast<long long>(d_.rows));
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
    }
    auto* values = reinterpret_cast<float*>(context.Resolve(d_.values));
    int64_t row = 0;
    for (int64_t e = 0; e < d_.experts; ++e) {
      const int64_t count = std::max<int64_t>(counts[e], 0);
      if (count > 0) ExpertRows(context, e, row, count, values);
      row += count;
    }
    Scatter(context, computed, row_index, values);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("grouped matmul finalize routing ") + (d_.int8_weight ? "A8W8" : "A8W4") +
           " m=" + std::to_string(d_.m) + " k=" + std::to_string(d_.k) + " n=" + std::to_string(d_.n) +
           " experts=" + std::to_string(d_.experts) + " rows=" + std::to_string(d_.rows) +
           (d_.has_offset ? " offset" : "");
  }

 private:
  // v of expert e's `count` rows from `row0`, into values.
  void ExpertRows(const RunContext& context, int64_t e, int64_t row0, int64_t count, float* values) const {
    const int64_t kn = d_.k * d_.n;
    const int8_t* weight = nullptr;
    if (d_.int8_weight) {
      weight = reinterpret_cast<const int8_t*>(context.Resolve(d_.w)) + e * kn;
    } else {
      const auto* packed = reinterpret_cast<const uint8_t*>(context.Resolve(d_.w));
      auto* unpacked = reinterpret_cast<int8_t*>(context.Resolve(d_.weight_scratch));
      for (int64_t i = 0; i < kn; ++i) unpacked[i] = Int4At(packed, e * kn + i);
      weight = unpacked;
    }
    const char* scales = context.Resolve(d_.scale);
    const float* bias = d_.has_bias ? reinterpret_cast<const float*>(context.Resolve(d_.bias)) + e * d_.n : nullptr;
    const float* offset =
        d_.has_offset ? reinterpret_cast<const float*>(context.Resolve(d_.offset)) + e * d_.n : nullptr;
    // A8W4: bias - 8 * scale * sum_k w, inside the per-token factor; A8W8: the bias, outside it.
    std::vector<double> column_term(static_cast<size_t>(d_.n), 0.0);
    std::vector<float> scale(static_cast<size_t>(d_.n));
    for (int64_t j = 0; j < d_.n; ++j) {
      const auto at = static_cast<size_t>(j);
      if (d_.int8_weight) {
        scale[at] = reinterpret_cast<const float*>(scales)[e * d_.n + j];
        if (bias != nullptr) column_term[at] = bias[j];
        continue;
      }
      int64_t weight_sum = 0;
      for (int64_t kk = 0; kk < d_.k; ++kk) weight_sum += weight[kk * d_.n + j];
      scale[at] = LowWordAsFloat(scales, e * d_.n + j);
      column_term[at] =
          static_cast<double>(bias[j]) - static_cast<double>(kLowShift) * scale[at] * static_cast<double>(weight_sum);
    }
    const auto* x = reinterpret_cast<const int8_t*>(context.Resolve(d_.x));
    const auto* pertoken = d_.has_pertoken ? reinterpret_cast<const float*>(context.Resolve(d_.pertoken)) : nullptr;
    const auto* logit = d_.has_logit ? reinterpret_cast<const float*>(context.Resolve(d_.logit)) : nullptr;
    ParallelFor(count, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<int32_t> acc(static_cast<size_t>(d_.n));
      for (int64_t r = row0 + begin; r < row0 + end; ++r) {
        std::fill(acc.begin(), acc.end(), 0);
        int64_t x_sum = 0;
        for (int64_t kk = 0; kk < d_.k; ++kk) {
          const auto xv = static_cast<int32_t>(x[r * d_.k + kk]);  // NOLINT(bugprone-signed-char-misuse): a number
          x_sum += xv;
          if (xv == 0) continue;
          const int8_t* w_row = weight + kk * d_.n;
          for (int64_t j = 0; j < d_.n; ++j) acc[static_cast<size_t>(j)] += xv * w_row[j];
        }
        const double token_scale = pertoken != nullptr ? static_cast<double>(pertoken[r]) : 1.0;
        const double row_logit = logit != nullptr ? static_cast<double>(logit[r]) : 1.0;
        for (int64_t j = 0; j < d_.n; ++j) {
          const auto at = static_cast<size_t>(j);
          double v = static_cast<double>(scale[at]) * acc[at];
          if (d_.int8_weight) {
            v = row_logit * (token_scale * v + column_term[at]);
          } else {
            v += column_term[at];
            if (offset != nullptr) v += static_cast<double>(offset[j]) * static_cast<double>(x_sum);
            v *= token_scale * row_logit;
          }
          values[r * d_.n + j] = static_cast<float>(v);
        }
      }
    });
  }

  // y from the shared rows and zeros, then each computed row added to its target, in row
  // order; without scatter_add, each computed row replaces its target (the last one wins).
  void Scatter(const RunContext& context, int64_t computed, const int64_t* row_index, const float* values) const {
    auto* y = reinterpret_cast<float*>(context.Resolve(d_.y));
    const auto* shared = d_.shared_rows > 0 ? reinterpret_cast<const float*>(context.Resolve(d_.shared)) : nullptr;
    ParallelFor(d_.n, kColumnGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = 0; d_.scatter_add && i < d_.rows; ++i) {
        const bool in_shared = i >= d_.shared_offset && i - d_.shared_offset < d_.shared_rows;
        for (int64_t j = begin; j < end; ++j) {
          y[i * d_.n + j] = in_shared ? d_.shared_weight * shared[(i - d_.shared_offset) * d_.n + j] : 0.0f;
        }
      }
      for (int64_t r = 0; r < computed; ++r) {
        float* target = y + row_index[r] * d_.n;
        for (int64_t j = begin; j < end; ++j) {
          target[j] = d_.scatter_add ? target[j] + values[r * d_.n + j] : values[r * d_.n + j];
        }
      }
    });
  }

  GroupedMatmulFinalizeDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeGroupedMatmulFinalizeStep(const GroupedMatmulFinalizeDesc& desc) {
  return std::make_unique<GroupedMatmulFinalizeStep>(desc);
}

}  // namespace canopy::kernels
