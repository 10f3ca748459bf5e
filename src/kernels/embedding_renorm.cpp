// EmbeddingRenorm's step (see embedding_renorm.h).
#include "embedding_renorm.h"

#include <cmath>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "pointwise_activation_functors.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 4;

class EmbeddingRenormStep final : public Step {
 public:
  explicit EmbeddingRenormStep(const EmbeddingRenormDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    char* table = context.Resolve(d_.table);
    std::vector<int64_t> indices(static_cast<size_t>(d_.count));
    Load(d_.index_dtype, context.Resolve(d_.indices), 1, d_.count, indices.data());
    // Each named row once, in order of first appearance; a bad index fails before any write.
    std::vector<bool> seen(static_cast<size_t>(d_.rows), false);
    std::vector<int64_t> rows;
    for (int64_t k = 0; k < d_.count; ++k) {
      const int64_t r = indices[static_cast<size_t>(k)];
      if (r < 0 || r >= d_.rows) {
        SetErrorMessage("%s: element %lld of 'indices' is %lld, outside [0, %lld)", d_.op, static_cast<long long>(k),
                        static_cast<long long>(r), static_cast<long long>(d_.rows));
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
      if (seen[static_cast<size_t>(r)]) continue;
      seen[static_cast<size_t>(r)] = true;
      rows.push_back(r);
    }
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.dtype));
    ParallelFor(static_cast<int64_t>(rows.size()), kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(static_cast<size_t>(d_.columns));
      for (int64_t i = begin; i < end; ++i) {
        char* base = table + rows[static_cast<size_t>(i)] * d_.row_stride * element;
        Load(d_.dtype, base, d_.column_stride, d_.columns, row.data());
        const float factor = RenormFactorFn{}(static_cast<float>(Norm(row)), static_cast<float>(d_.max_norm));
        if (factor == 1.0f) continue;
        for (float& v : row) v *= factor;
        Store(row.data(), d_.dtype, base, d_.column_stride, d_.columns);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("embedding renorm ") + DtypeName(d_.dtype) + " [" + std::to_string(d_.rows) + "," +
           std::to_string(d_.columns) + "], " + std::to_string(d_.count) + " index(es), p " + std::to_string(d_.p);
  }

 private:
  double Norm(const std::vector<float>& row) const {
    double acc = 0;
    if (std::isinf(d_.p)) {  // the largest magnitude (-inf: the smallest)
      acc = d_.p > 0 ? 0 : INFINITY;
      // NaN magnitudes are skipped, as fmax / fmin would skip them; compares,
      // because aarch64 GCC 12 fails with an internal error vectorising those.
      const bool largest = d_.p > 0;
      for (const float v : row) {
        const double m = std::abs(static_cast<double>(v));
        if (largest ? m > acc : m < acc) acc = m;
      }
      return acc;
    }
    if (d_.p == 0) {
      for (const float v : row) acc += v != 0 ? 1 : 0;
      return acc;
    }
    for (const float v : row) acc += std::pow(std::abs(static_cast<double>(v)), d_.p);
    return std::pow(acc, 1 / d_.p);
  }

  EmbeddingRenormDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeEmbeddingRenormStep(const EmbeddingRenormDesc& desc) {
  return std::make_unique<EmbeddingRenormStep>(desc);
}

}  // namespace canopy::kernels
