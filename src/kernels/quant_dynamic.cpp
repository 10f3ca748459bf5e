// Per-token dynamic quantisation (see quant_dynamic.h).
#include "quant_dynamic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 8;
constexpr float kInt8Max = 127.0f;
constexpr float kInt4Max = 7.0f;
constexpr float kMinAsymmetricScale = 1e-12f;  // CANN's floor on (max - min) / (q_max - q_min)

class DynamicQuantStep final : public Step {
 public:
  explicit DynamicQuantStep(const DynamicQuantDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(d_.x);
    auto* y = reinterpret_cast<uint8_t*>(context.Resolve(d_.y));
    auto* scale = reinterpret_cast<float*>(context.Resolve(d_.scale));
    auto* offset = d_.asymmetric ? reinterpret_cast<float*>(context.Resolve(d_.offset)) : nullptr;
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.x_dtype));
    const int64_t smooth_rows = d_.groups > 0 ? d_.groups : 1;
    std::vector<float> smooth;
    if (d_.has_smooth) {
      smooth.resize(static_cast<size_t>(smooth_rows * d_.columns));
      Load(d_.smooth_dtype, context.Resolve(d_.smooth), 1, smooth_rows * d_.columns, smooth.data());
    }
    std::vector<int64_t> row_group;
    if (d_.groups > 0) {
      const aclnnStatus status = GroupOfRows(context, row_group);
      if (status != ACLNN_SUCCESS) return status;
    }
    const float q_max = d_.int4 ? kInt4Max : kInt8Max;
    const float q_min = -q_max - 1.0f;
    ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(static_cast<size_t>(d_.columns));
      for (int64_t i = begin; i < end; ++i) {
        Load(d_.x_dtype, x + i * d_.columns * element, 1, d_.columns, row.data());
        const float* s_row = nullptr;
        if (d_.has_smooth)
          s_row = smooth.data() + (row_group.empty() ? 0 : row_group[static_cast<size_t>(i)]) * d_.columns;
        float max = 0.0f, high = -std::numeric_limits<float>::infinity(), low = -high;
        bool nan = false;
        for (int64_t j = 0; j < d_.columns; ++j) {
          float& v = row[static_cast<size_t>(j)];
          if (s_row != nullptr) v *= s_row[j];
          nan = nan || std::isnan(v);
          max = std::max(max, std::abs(v));
          high = std::max(high, v);
          low = std::min(low, v);
        }
        // A NaN in the row makes its statistics NaN (std::max would drop it),
        // so its scale is NaN and every value quantises to 0 (below).
        if (nan) max = high = low = std::numeric_limits<float>::quiet_NaN();
        float inverse = 0.0f, shift = 0.0f, lowest = -q_max;
        if (d_.asymmetric) {
          const float s = std::max((high - low) / (q_max - q_min), kMinAsymmetricScale);
          shift = q_max - high / s;
          scale[i] = s;
          offset[i] = shift;
          inverse = 1.0f / s;
          lowest = q_min;
        } else if (d_.clip_ratio > 0.0f) {
          scale[i] = max * d_.clip_ratio / q_max;
          inverse = max > 0.0f ? (q_max / d_.clip_ratio) / max : 0.0f;
          lowest = q_min;
        } else {
          const float s = max / q_max;
          scale[i] = s;
          inverse = s > 0.0f ? 1.0f / s : 0.0f;
        }
        const float divisor = scale[i];
        // A NaN quotient (a NaN scale, or inf times a zero inverse) converts to
        // 0, as the NPU's float-to-integer conversion makes it; a cast of NaN
        // to int is undefined.
        const auto integer = [&](float q) {
          return std::isnan(q) ? 0 : static_cast<int>(std::clamp(q, lowest, q_max));
        };
        const auto quantise = [&](int64_t j) {
          if (d_.divide_round_away) {
            return integer(divisor > 0.0f ? std::round(row[static_cast<size_t>(j)] / divisor) : 0.0f);
          }
          return integer(std::nearbyint(row[static_cast<size_t>(j)] * inverse + shift));  // half to even
        };
        if (d_.int4) {
          uint8_t* out = y + i * d_.columns / 2;
          for (int64_t j = 0; j < d_.columns; j += 2) {
            out[j / 2] = static_cast<uint8_t>((quantise(j) & 0xF) | ((quantise(j + 1) & 0xF) << 4));
          }
        } else {
          auto* out = reinterpret_cast<int8_t*>(y + i * d_.columns);
          for (int64_t j = 0; j < d_.columns; ++j) out[j] = static_cast<int8_t>(quantise(j));
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("dynamic quant ") + DtypeName(d_.x_dtype) + (d_.int4 ? " -> int4" : " -> int8") +
           " rows=" + std::to_string(d_.rows) + " columns=" + std::to_string(d_.columns) +
           (d_.has_smooth ? " smooth" : "") + (d_.asymmetric ? " asymmetric" : "") +
           (d_.groups > 0 ? " groups=" + std::to_string(d_.groups) : "") +
           (d_.clip_ratio > 0.0f ? " clip=" + std::to_string(d_.clip_ratio) : "");
  }

 private:
  // Each row's group: the first g whose cumulative count is above the row (scanning on from the
  // previous row's group, as CANN's kernel does); a row past the last count fails the run.
  aclnnStatus GroupOfRows(const RunContext& context, std::vector<int64_t>& row_group) const {
    std::vector<int64_t> counts(static_cast<size_t>(d_.groups));
    Load(d_.group_dtype, context.Resolve(d_.group_index), 1, d_.groups, counts.data());
    row_group.resize(static_cast<size_t>(d_.rows));
    int64_t g = 0;
    for (int64_t r = 0; r < d_.rows; ++r) {
      while (g < d_.groups && counts[static_cast<size_t>(g)] <= r) ++g;
      if (g == d_.groups) {
        SetErrorMessage(
            "DynamicQuantV2: groupIndexOptional's counts (the last %lld) leave row %lld of %lld without a group",
            static_cast<long long>(counts.back()), static_cast<long long>(r), static_cast<long long>(d_.rows));
        return ACL_ERROR_RT_AICORE_EXCEPTION;  // what a faulting kernel reports at synchronisation
      }
      row_group[static_cast<size_t>(r)] = g;
    }
    return ACLNN_SUCCESS;
  }

  DynamicQuantDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeDynamicQuantStep(const DynamicQuantDesc& desc) {
  return std::make_unique<DynamicQuantStep>(desc);
}

}  // namespace canopy::kernels
