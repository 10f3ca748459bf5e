#include "grouped_matmul.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int kRows = 4;           // rows of x per pass over the weight
constexpr int64_t kColumns = 256;  // columns of the output kept hot per pass
constexpr int64_t kParallelWork = 1 << 16;

// c[r][0, cols) = init[0, cols) + sum over [k0, k1) of a[r][kk] * b[kk][0, cols) for `rows` rows.
void RowBlock(const float* a, int64_t lda, const float* b, int64_t ldb, int64_t k0, int64_t k1, const float* init,
              float* c, int64_t ldc, int rows, int64_t cols) {
  for (int64_t c0 = 0; c0 < cols; c0 += kColumns) {
    const int64_t width = std::min(kColumns, cols - c0);
    float acc[kRows][kColumns];
    for (int r = 0; r < rows; ++r) {
      for (int64_t j = 0; j < width; ++j) acc[r][j] = init != nullptr ? init[c0 + j] : 0.0f;
    }
    for (int64_t kk = k0; kk < k1; ++kk) {
      const float* brow = b + kk * ldb + c0;
      for (int r = 0; r < rows; ++r) {
        const float av = a[r * lda + kk];
        for (int64_t j = 0; j < width; ++j) acc[r][j] += av * brow[j];
      }
    }
    for (int r = 0; r < rows; ++r) std::copy(acc[r], acc[r] + width, c + r * ldc + c0);
  }
}

class GroupedGemmStep final : public Step {
 public:
  explicit GroupedGemmStep(const GroupedGemmDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* list = reinterpret_cast<const int64_t*>(context.Resolve(d_.group_list));
    const int64_t extent = d_.split_k ? d_.k : d_.m;
    std::vector<int64_t> ends(d_.groups);
    int64_t previous = 0;
    for (int64_t g = 0; g < d_.groups; ++g) {
      const int64_t value = list[g * d_.group_list_stride];
      // A count past what is left marks the list bad (-1) without overflowing the sum.
      ends[g] = !d_.counts ? value : (value < 0 || value > extent - previous ? -1 : previous + value);
      if (ends[g] < previous || ends[g] > extent) {
        SetErrorMessage(
            "GroupedMatmul: groupListOptional[%lld] = %lld; the %s must rise from 0 to at most %lld (the %s extent)",
            static_cast<long long>(g), static_cast<long long>(value),
            d_.counts ? "counts (non-negative) summed" : "cumulative counts", static_cast<long long>(extent),
            d_.split_k ? "k" : "m");
        return ACL_ERROR_RT_AICORE_EXCEPTION;  // what a faulting kernel reports at synchronisation
      }
      previous = ends[g];
    }
    const auto* x = reinterpret_cast<const float*>(context.Resolve(d_.x));
    const auto* w = reinterpret_cast<const float*>(context.Resolve(d_.weight));
    const auto* bias = d_.has_bias ? reinterpret_cast<const float*>(context.Resolve(d_.bias)) : nullptr;
    auto* y = reinterpret_cast<float*>(context.Resolve(d_.y));
    const int64_t row_blocks = (d_.m + kRows - 1) / kRows;
    const int64_t per_block = std::max<int64_t>(1, kRows * d_.k * d_.n);
    const int64_t grain = std::max<int64_t>(1, kParallelWork / per_block);
    if (d_.split_k) {
      // y[g] = x[:, k_{g-1}:k_g] @ w[k_{g-1}:k_g, :]; an empty group gives zeros.
      ParallelFor(d_.groups * row_blocks, grain, [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          const int64_t g = t / row_blocks, r0 = (t % row_blocks) * kRows;
          const int rows = static_cast<int>(std::min<int64_t>(kRows, d_.m - r0));
          RowBlock(x + r0 * d_.k, d_.k, w, d_.n, g == 0 ? 0 : ends[g - 1], ends[g], nullptr, y + (g * d_.m + r0) * d_.n,
                   d_.n, rows, d_.n);
        }
      });
      return ACLNN_SUCCESS;
    }
    // Rows [m_{g-1}, m_g) of x against weight g; blocks never straddle groups.
    ParallelFor(row_blocks, grain, [&](int64_t begin, int64_t end) {
      for (int64_t blk = begin; blk < end; ++blk) {
        int64_t r = blk * kRows;
        const int64_t r_end = std::min(d_.m, r + kRows);
        while (r < r_end) {
          const int64_t g = std::upper_bound(ends.begin(), ends.end(), r) - ends.begin();
          if (g >= d_.groups) break;  // past the last group: left as it is
          const int rows = static_cast<int>(std::min(r_end, ends[g]) - r);
          RowBlock(x + r * d_.k, d_.k, w + g * d_.k * d_.n, d_.n, 0, d_.k, bias != nullptr ? bias + g * d_.n : nullptr,
                   y + r * d_.n, d_.n, rows, d_.n);
          r += rows;
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "grouped matmul (" << (d_.split_k ? "k" : "m") << " split by group list) " << d_.groups << " groups, "
         << d_.m << "x" << d_.k << " @ " << d_.k << "x" << d_.n << " f32" << (d_.has_bias ? " + bias" : "");
    return text.str();
  }

 private:
  GroupedGemmDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeGroupedGemmStep(const GroupedGemmDesc& desc) {
  return std::make_unique<GroupedGemmStep>(desc);
}

}  // namespace canopy::kernels
