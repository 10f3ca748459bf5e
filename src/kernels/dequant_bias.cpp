// DequantBias (see dequant_bias.h).
#include "dequant_bias.h"

#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 8;

class DequantBiasStep final : public Step {
 public:
  explicit DequantBiasStep(const DequantBiasDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* x = reinterpret_cast<const int32_t*>(context.Resolve(d_.x));
    char* y = context.Resolve(d_.y);
    const auto columns = static_cast<size_t>(d_.columns);
    std::vector<float> weight(columns), float_bias;
    Load(d_.weight_scale_dtype, context.Resolve(d_.weight_scale), 1, d_.columns, weight.data());
    std::vector<float> activate;
    if (d_.has_activate_scale) {
      activate.resize(static_cast<size_t>(d_.rows));
      Load(ACL_FLOAT, context.Resolve(d_.activate_scale), 1, d_.rows, activate.data());
    }
    const bool int_bias = d_.has_bias && d_.bias_dtype == ACL_INT32;
    const auto* integer_bias = int_bias ? reinterpret_cast<const int32_t*>(context.Resolve(d_.bias)) : nullptr;
    if (d_.has_bias && !int_bias) {
      float_bias.resize(columns);
      Load(d_.bias_dtype, context.Resolve(d_.bias), 1, d_.columns, float_bias.data());
    }
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.y_dtype));
    ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(columns);
      for (int64_t i = begin; i < end; ++i) {
        const float row_scale = activate.empty() ? 1.0F : activate[static_cast<size_t>(i)];
        DequantiseRow(x + i * d_.columns, d_.columns, weight.data(), row_scale, integer_bias,
                      float_bias.empty() ? nullptr : float_bias.data(), row.data());
        Store(row.data(), d_.y_dtype, y + i * d_.columns * element, 1, d_.columns);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("dequant bias -> ") + DtypeName(d_.y_dtype) + " rows=" + std::to_string(d_.rows) +
           " columns=" + std::to_string(d_.columns) + (d_.has_activate_scale ? " activate_scale" : "") +
           (d_.has_bias ? std::string(" bias ") + DtypeName(d_.bias_dtype) : std::string());
  }

 private:
  DequantBiasDesc d_;
};

}  // namespace

void DequantiseRow(const int32_t* x, int64_t columns, const float* weight_scale, float activate_scale,
                   const int32_t* int_bias, const float* float_bias, float* out) {
  for (int64_t j = 0; j < columns; ++j) {
    int32_t a = x[j];
    // INT32 bias: added in 32-bit two's complement (unsigned, so a wrap is defined).
    if (int_bias != nullptr) a = static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(int_bias[j]));
    float v = static_cast<float>(a) * weight_scale[j] * activate_scale;
    if (float_bias != nullptr) v += float_bias[j];
    out[j] = v;
  }
}

std::unique_ptr<Step> MakeDequantBiasStep(const DequantBiasDesc& desc) {
  return std::make_unique<DequantBiasStep>(desc);
}

}  // namespace canopy::kernels
