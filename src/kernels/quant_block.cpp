// Block-wise dynamic quantisation (see quant_block.h).
#include "quant_block.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "abs_max.h"
#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 8;
constexpr float kInt8Max = 127.0f;
constexpr float kInt8Min = -128.0f;

class BlockQuantStep final : public Step {
 public:
  explicit BlockQuantStep(const BlockQuantDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(d_.x);
    auto* y = reinterpret_cast<int8_t*>(context.Resolve(d_.y));
    auto* scale = reinterpret_cast<float*>(context.Resolve(d_.scale));
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.x_dtype));
    const int64_t blocks = (d_.columns + d_.block_columns - 1) / d_.block_columns;
    const bool limited = d_.min_scale > 0.0f;
    // The kernel's constants, each rounded to f32 once.
    const float inverse_max = 1.0f / kInt8Max;
    const float max_scale = limited ? 1.0f / d_.min_scale : 0.0f;
    ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(static_cast<size_t>(d_.columns));
      for (int64_t i = begin; i < end; ++i) {
        Load(d_.x_dtype, x + i * d_.columns * element, 1, d_.columns, row.data());
        for (int64_t b = 0; b < blocks; ++b) {
          const int64_t first = b * d_.block_columns;
          const int64_t last = std::min(first + d_.block_columns, d_.columns);
          float max = 0.0f;
          for (int64_t j = first; j < last; ++j) max = AbsMaxKeepingNan(max, row[static_cast<size_t>(j)]);
          float s = max * inverse_max;
          float q = max > 0.0f || std::isnan(max) ? (1.0f / max) * kInt8Max : 0.0f;  // NaN: every value NaN, then 0
          if (limited && max > 0.0f) {
            s = std::min(s, max_scale);
            q = std::max(q, d_.min_scale);
          }
          scale[i * blocks + b] = s;
          for (int64_t j = first; j < last; ++j) {
            const float v = std::nearbyint(row[static_cast<size_t>(j)] * q);  // half to even
            // NaN (a NaN block, or inf times an infinite block's 0) quantises to 0, explicitly: its conversion is
            // undefined.
            y[i * d_.columns + j] = std::isnan(v) ? int8_t{0} : static_cast<int8_t>(std::clamp(v, kInt8Min, kInt8Max));
          }
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("block quant ") + DtypeName(d_.x_dtype) + " -> int8 rows=" + std::to_string(d_.rows) +
           " columns=" + std::to_string(d_.columns) + " block=" + std::to_string(d_.block_columns);
  }

 private:
  BlockQuantDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeBlockQuantStep(const BlockQuantDesc& desc) { return std::make_unique<BlockQuantStep>(desc); }

}  // namespace canopy::kernels
