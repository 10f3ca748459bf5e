// Dequantising epilogue of the full-quantisation matmul (see quant_matmul_epilogue.h).
#include "quant_matmul_epilogue.h"

#include <cstring>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 4;

class QuantEpilogueStep final : public Step {
 public:
  explicit QuantEpilogueStep(const QuantEpilogueDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const std::vector<float> scale = Scales(context);
    const auto* acc = reinterpret_cast<const int32_t*>(context.Resolve(d_.acc));
    const auto* token = d_.has_token_scale ? reinterpret_cast<const float*>(context.Resolve(d_.token_scale)) : nullptr;
    const char* bias = d_.has_bias ? context.Resolve(d_.bias) : nullptr;
    const bool int_bias = d_.has_bias && d_.bias_dtype == ACL_INT32;
    char* out = context.Resolve(d_.out);
    const int64_t out_element = static_cast<int64_t>(DtypeSize(d_.out_dtype));
    const int64_t bias_element = d_.has_bias ? static_cast<int64_t>(DtypeSize(d_.bias_dtype)) : 0;
    ParallelFor(d_.batch * d_.m, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(static_cast<size_t>(d_.n)), float_bias(static_cast<size_t>(d_.n), 0.0f);
      int64_t loaded_batch = -1;
      for (int64_t r = begin; r < end; ++r) {
        const int64_t b = r / d_.m, i = r % d_.m;
        const int32_t* a = acc + r * d_.n;
        const char* bias_row = bias != nullptr ? bias + b * d_.bias_batch_stride * bias_element : nullptr;
        if (bias_row != nullptr && !int_bias && b != loaded_batch) {
          Load(d_.bias_dtype, bias_row, 1, d_.n, float_bias.data());
          loaded_batch = b;
        }
        const float t = token != nullptr ? token[i] : 1.0f;
        const auto* ib = int_bias ? reinterpret_cast<const int32_t*>(bias_row) : nullptr;
        for (int64_t j = 0; j < d_.n; ++j) {
          // INT32 bias: added into the INT32 accumulator as the NPU's cube does, in 32-bit
          // two's complement (unsigned, so a wrap is defined), as DequantBias adds it.
          const auto sum =
              static_cast<int32_t>(static_cast<uint32_t>(a[j]) + static_cast<uint32_t>(ib != nullptr ? ib[j] : 0));
          const float s = scale[static_cast<size_t>(d_.scale_count == 1 ? 0 : j)];
          row[static_cast<size_t>(j)] = static_cast<float>(sum) * s * t + float_bias[static_cast<size_t>(j)];
        }
        Store(row.data(), d_.out_dtype, out + r * d_.n * out_element, 1, d_.n);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("quant matmul epilogue ") + DtypeName(d_.scale_dtype) + " scale" +
           (d_.has_token_scale ? " * per-token scale" : "") +
           (d_.has_bias ? std::string(" + ") + DtypeName(d_.bias_dtype) + " bias" : "") + " -> " +
           DtypeName(d_.out_dtype) + " (" + std::to_string(d_.batch) + "x" + std::to_string(d_.m) + "x" +
           std::to_string(d_.n) + ")";
  }

 private:
  // The scales as f32 (UINT64 / INT64: the f32 in the low 32 bits).
  std::vector<float> Scales(const RunContext& context) const {
    std::vector<float> scale(static_cast<size_t>(d_.scale_count));
    const char* src = context.Resolve(d_.scale);
    if (d_.scale_dtype == ACL_UINT64 || d_.scale_dtype == ACL_INT64) {
      for (int64_t j = 0; j < d_.scale_count; ++j) {
        uint64_t word;
        std::memcpy(&word, src + j * 8, sizeof word);
        const auto bits = static_cast<uint32_t>(word & 0xFFFFFFFFu);
        std::memcpy(&scale[static_cast<size_t>(j)], &bits, sizeof bits);
      }
    } else {
      Load(d_.scale_dtype, src, 1, d_.scale_count, scale.data());
    }
    return scale;
  }

  QuantEpilogueDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeQuantEpilogueStep(const QuantEpilogueDesc& desc) {
  return std::make_unique<QuantEpilogueStep>(desc);
}

}  // namespace canopy::kernels
