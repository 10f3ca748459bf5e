// NSA compression (see nsa_compress.h).
#include "nsa_compress.h"

#include <string>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kGrainElements = 16 * 1024;

class NsaCompressStep final : public Step {
 public:
  explicit NsaCompressStep(NsaCompressDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* in = context.Resolve(d_.in);
    char* out = context.Resolve(d_.out);
    const int64_t row = d_.heads * d_.head_dim;
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t weight_count = d_.block * d_.heads;
    std::vector<float> weight(static_cast<size_t>(weight_count));
    Load(d_.dtype, context.Resolve(d_.weight), 1, weight_count, weight.data());
    const auto rows = static_cast<int64_t>(d_.window_starts.size());
    const int64_t window_elements = d_.block * row;
    ParallelFor(rows, std::max<int64_t>(1, kGrainElements / std::max<int64_t>(window_elements, 1)),
                [&](int64_t begin, int64_t end) {
                  std::vector<float> x(static_cast<size_t>(row)), sum(static_cast<size_t>(row));
                  for (int64_t o = begin; o < end; ++o) {
                    std::fill(sum.begin(), sum.end(), 0.0F);
                    const int64_t start = d_.window_starts[static_cast<size_t>(o)];
                    for (int64_t j = 0; j < d_.block; ++j) {
                      const int64_t offset = (start + j) * row * element;
                      Load(d_.dtype, in + offset, 1, row, x.data());
                      for (int64_t n = 0; n < d_.heads; ++n) {
                        const float w = weight[static_cast<size_t>(j * d_.heads + n)];
                        const int64_t base = n * d_.head_dim;
                        for (int64_t i = base; i < base + d_.head_dim; ++i) {
                          sum[static_cast<size_t>(i)] += w * x[static_cast<size_t>(i)];
                        }
                      }
                    }
                    Store(sum.data(), d_.dtype, out + o * row * element, 1, row);
                  }
                });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("nsa compress ") + DtypeName(d_.dtype) + " windows=" + std::to_string(d_.window_starts.size()) +
           " block=" + std::to_string(d_.block) + " heads=" + std::to_string(d_.heads) +
           " dim=" + std::to_string(d_.head_dim);
  }

 private:
  NsaCompressDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeNsaCompressStep(const NsaCompressDesc& desc) {
  return std::make_unique<NsaCompressStep>(desc);
}

}  // namespace canopy::kernels
