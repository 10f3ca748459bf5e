// Exact INT8 x INT8 -> INT32 product (see quant_int8_matmul.h).
#include "quant_int8_matmul.h"

#include <string>

#include "parallel_for.h"

namespace canopy::kernels {
namespace {

class Int8MatmulStep final : public Step {
 public:
  explicit Int8MatmulStep(const Int8MatmulDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* a = reinterpret_cast<const int8_t*>(context.Resolve(d_.a));
    const auto* bt = reinterpret_cast<const int8_t*>(context.Resolve(d_.bt));
    auto* acc = reinterpret_cast<int32_t*>(context.Resolve(d_.acc));
    ParallelFor(d_.batch * d_.m, 1, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t b = r / d_.m;
        const int8_t* row = a + r * d_.k;
        for (int64_t j = 0; j < d_.n; ++j) {
          const int8_t* col = bt + (b * d_.n + j) * d_.k;
          int32_t sum = 0;
#pragma omp simd reduction(+ : sum)
          for (int64_t l = 0; l < d_.k; ++l) sum += static_cast<int32_t>(row[l]) * static_cast<int32_t>(col[l]);
          acc[r * d_.n + j] = sum;
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "int8 matmul (exact) " + std::to_string(d_.batch) + "x" + std::to_string(d_.m) + "x" + std::to_string(d_.k) +
           " @ " + std::to_string(d_.k) + "x" + std::to_string(d_.n);
  }

 private:
  Int8MatmulDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeInt8MatmulStep(const Int8MatmulDesc& desc) { return std::make_unique<Int8MatmulStep>(desc); }

}  // namespace canopy::kernels
