// NSA compression (see nsa_compress.h).
#include "nsa_compress.h"

#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kGrainElements = 16 * 1024;

// sum[n * dim + i] = sum_j weight[j * heads + n] * row_j[n * dim + i], row_j at row_at(j).
template <typename RowAt>
void CompressWindow(aclDataType dtype, int64_t heads, int64_t dim, int64_t block, const std::vector<float>& weight,
                    const RowAt& row_at, std::vector<float>& x, std::vector<float>& sum) {
  const int64_t row = heads * dim;
  std::fill(sum.begin(), sum.end(), 0.0F);
  for (int64_t j = 0; j < block; ++j) {
    Load(dtype, row_at(j), 1, row, x.data());
    for (int64_t n = 0; n < heads; ++n) {
      const float w = weight[static_cast<size_t>(j * heads + n)];
      for (int64_t i = n * dim; i < (n + 1) * dim; ++i) sum[static_cast<size_t>(i)] += w * x[static_cast<size_t>(i)];
    }
  }
}

std::vector<float> LoadWeight(const RunContext& context, BufferRef buffer, aclDataType dtype, int64_t count) {
  std::vector<float> weight(static_cast<size_t>(count));
  Load(dtype, context.Resolve(buffer), 1, count, weight.data());
  return weight;
}

class NsaCompressStep final : public Step {
 public:
  explicit NsaCompressStep(NsaCompressDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* in = context.Resolve(d_.in);
    char* out = context.Resolve(d_.out);
    const int64_t row = d_.heads * d_.head_dim;
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const std::vector<float> weight = LoadWeight(context, d_.weight, d_.dtype, d_.block * d_.heads);
    const auto rows = static_cast<int64_t>(d_.window_starts.size());
    const int64_t window_elements = d_.block * row;
    ParallelFor(rows, std::max<int64_t>(1, kGrainElements / std::max<int64_t>(window_elements, 1)),
                [&](int64_t begin, int64_t end) {
                  std::vector<float> x(static_cast<size_t>(row)), sum(static_cast<size_t>(row));
                  for (int64_t o = begin; o < end; ++o) {
                    const int64_t start = d_.window_starts[static_cast<size_t>(o)];
                    CompressWindow(
                        d_.dtype, d_.heads, d_.head_dim, d_.block, weight,
                        [&](int64_t j) { return in + (start + j) * row * element; }, x, sum);
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

class NsaCompressCacheStep final : public Step {
 public:
  explicit NsaCompressCacheStep(NsaCompressCacheDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* slots = reinterpret_cast<const int32_t*>(context.Resolve(d_.slot_mapping));
    const auto* table = reinterpret_cast<const int32_t*>(context.Resolve(d_.block_table));
    const auto count = static_cast<int64_t>(d_.batches.size());
    // Every index first, so that a bad one leaves the cache untouched.
    for (int64_t i = 0; i < count; ++i) {
      const int64_t b = d_.batches[static_cast<size_t>(i)], len = d_.seq_lens[static_cast<size_t>(i)];
      const int64_t slot = slots[b];
      if (slot < 0 || slot >= d_.out_rows) {
        SetErrorMessage("aclnnNsaCompressWithCache: element %lld of 'slotMapping' is %lld, outside [0, %lld)",
                        static_cast<long long>(b), static_cast<long long>(slot), static_cast<long long>(d_.out_rows));
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
      for (int64_t p = (len - d_.block) / d_.page_size; p <= (len - 1) / d_.page_size; ++p) {
        const int64_t page = table[b * d_.pages_per_batch + p];
        if (page < 0 || page >= d_.pages) {
          SetErrorMessage("aclnnNsaCompressWithCache: blockTableOptional[%lld, %lld] is %lld, outside [0, %lld)",
                          static_cast<long long>(b), static_cast<long long>(p), static_cast<long long>(page),
                          static_cast<long long>(d_.pages));
          return ACL_ERROR_RT_AICORE_EXCEPTION;
        }
      }
    }
    const char* in = context.Resolve(d_.in);
    char* out = context.Resolve(d_.out);
    const int64_t row = d_.heads * d_.head_dim;
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const std::vector<float> weight = LoadWeight(context, d_.weight, d_.dtype, d_.block * d_.heads);
    // Rows are computed in parallel and stored in batch order, so a repeated slot gets the later batch's row.
    std::vector<float> results(static_cast<size_t>(count * row));
    ParallelFor(count, 1, [&](int64_t begin, int64_t end) {
      std::vector<float> x(static_cast<size_t>(row)), sum(static_cast<size_t>(row));
      for (int64_t i = begin; i < end; ++i) {
        const int64_t b = d_.batches[static_cast<size_t>(i)];
        const int64_t first = d_.seq_lens[static_cast<size_t>(i)] - d_.block;
        CompressWindow(
            d_.dtype, d_.heads, d_.head_dim, d_.block, weight,
            [&](int64_t j) {
              const int64_t token = first + j;
              const int64_t page = table[b * d_.pages_per_batch + token / d_.page_size];
              return in + (page * d_.page_size + token % d_.page_size) * row * element;
            },
            x, sum);
        std::copy(sum.begin(), sum.end(), results.begin() + i * row);
      }
    });
    for (int64_t i = 0; i < count; ++i) {
      const int64_t slot = slots[d_.batches[static_cast<size_t>(i)]];
      Store(results.data() + i * row, d_.dtype, out + slot * row * element, 1, row);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("nsa compress with cache ") + DtypeName(d_.dtype) +
           " batches=" + std::to_string(d_.batches.size()) + " block=" + std::to_string(d_.block) +
           " page=" + std::to_string(d_.page_size) + " heads=" + std::to_string(d_.heads) +
           " dim=" + std::to_string(d_.head_dim);
  }

 private:
  NsaCompressCacheDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeNsaCompressStep(const NsaCompressDesc& desc) {
  return std::make_unique<NsaCompressStep>(desc);
}

std::unique_ptr<Step> MakeNsaCompressCacheStep(const NsaCompressCacheDesc& desc) {
  return std::make_unique<NsaCompressCacheStep>(desc);
}

}  // namespace canopy::kernels
