// Per-token dynamic quantisation (see quant_dynamic.h).
#include "quant_dynamic.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 8;
constexpr float kInt8Max = 127.0f;
constexpr float kInt4Max = 7.0f;

class DynamicQuantStep final : public Step {
 public:
  explicit DynamicQuantStep(const DynamicQuantDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(d_.x);
    auto* y = reinterpret_cast<uint8_t*>(context.Resolve(d_.y));
    auto* scale = reinterpret_cast<float*>(context.Resolve(d_.scale));
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.x_dtype));
    std::vector<float> smooth;
    if (d_.has_smooth) {
      smooth.resize(static_cast<size_t>(d_.columns));
      Load(d_.smooth_dtype, context.Resolve(d_.smooth), 1, d_.columns, smooth.data());
    }
    const float q_max = d_.int4 ? kInt4Max : kInt8Max;
    ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(static_cast<size_t>(d_.columns));
      for (int64_t i = begin; i < end; ++i) {
        Load(d_.x_dtype, x + i * d_.columns * element, 1, d_.columns, row.data());
        float max = 0.0f;
        for (int64_t j = 0; j < d_.columns; ++j) {
          float& v = row[static_cast<size_t>(j)];
          if (d_.has_smooth) v *= smooth[static_cast<size_t>(j)];
          max = std::max(max, std::abs(v));
        }
        const float s = max / q_max;
        scale[i] = s;
        const float inverse = s > 0.0f ? 1.0f / s : 0.0f;
        const auto quantise = [&](int64_t j) {
          const float q = std::nearbyint(row[static_cast<size_t>(j)] * inverse);  // half to even
          return static_cast<int>(std::clamp(q, -q_max, q_max));
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
           (d_.has_smooth ? " smooth" : "");
  }

 private:
  DynamicQuantDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeDynamicQuantStep(const DynamicQuantDesc& desc) {
  return std::make_unique<DynamicQuantStep>(desc);
}

}  // namespace canopy::kernels
