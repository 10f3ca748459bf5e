#include "nearest_resize.h"

#include <cstring>
#include <sstream>
#include <utility>

#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int kLast = kNearestMaxRank - 1;

class NearestResizeStep final : public Step {
 public:
  explicit NearestResizeStep(NearestResizeDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(d_.src);
    char* dst = context.Resolve(d_.dst);
    const auto& shape = d_.dst_shape;
    int64_t lines = 1;
    for (int dim = 0; dim < kLast; ++dim) lines *= shape[dim];
    const int64_t bytes = d_.element_bytes;
    // One line of the last dim per unit; the split is static.
    ParallelFor(lines, 64, [&](int64_t begin, int64_t end) {
      for (int64_t line = begin; line < end; ++line) {
        int64_t rest = line, src_base = 0, dst_base = 0;
        for (int dim = kLast - 1; dim >= 0; --dim) {
          const int64_t index = rest % shape[dim];
          rest /= shape[dim];
          src_base += SourceIndex(dim, index) * d_.src_strides[dim];
          dst_base += index * d_.dst_strides[dim];
        }
        for (int64_t i = 0; i < shape[kLast]; ++i) {
          const int64_t src_offset = src_base + SourceIndex(kLast, i) * d_.src_strides[kLast];
          std::memcpy(dst + (dst_base + i * d_.dst_strides[kLast]) * bytes, src + src_offset * bytes,
                      static_cast<size_t>(bytes));
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  // The input index that output index `i` of `dim` reads.
  int64_t SourceIndex(int dim, int64_t i) const {
    const auto& table = d_.source[static_cast<size_t>(dim)];
    return table.empty() ? i : table[static_cast<size_t>(i)];
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "nearest resize to";
    for (int dim = 0; dim < kNearestMaxRank; ++dim) text << (dim == 0 ? " " : "x") << d_.dst_shape[dim];
    text << " (" << d_.element_bytes << "-byte elements)";
    return text.str();
  }

 private:
  NearestResizeDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeNearestResizeStep(NearestResizeDesc desc) {
  return std::make_unique<NearestResizeStep>(std::move(desc));
}

}  // namespace canopy::kernels
