#include "nearest_resize.h"

#include <cstring>
#include <sstream>

#include "parallel_for.h"

namespace canopy::kernels {
namespace {

class NearestResizeStep final : public Step {
 public:
  explicit NearestResizeStep(NearestResizeDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(d_.src);
    char* dst = context.Resolve(d_.dst);
    const auto& shape = d_.dst_shape;
    const int64_t lines = shape[0] * shape[1] * shape[2];
    const int64_t bytes = d_.element_bytes;
    // One line of the last dim per unit; the split is static.
    ParallelFor(lines, 64, [&](int64_t begin, int64_t end) {
      for (int64_t line = begin; line < end; ++line) {
        std::array<int64_t, 4> index{};
        int64_t rest = line;
        for (int dim = 2; dim >= 0; --dim) {
          index[dim] = rest % shape[dim];
          rest /= shape[dim];
        }
        int64_t src_base = 0, dst_base = 0;
        for (int dim = 0; dim < 3; ++dim) {
          src_base += SourceIndex(dim, index[dim]) * d_.src_strides[dim];
          dst_base += index[dim] * d_.dst_strides[dim];
        }
        for (int64_t i = 0; i < shape[3]; ++i) {
          const int64_t src_offset = src_base + SourceIndex(3, i) * d_.src_strides[3];
          std::memcpy(dst + (dst_base + i * d_.dst_strides[3]) * bytes, src + src_offset * bytes,
                      static_cast<size_t>(bytes));
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  // The input index that output index `i` of `dim` reads.
  int64_t SourceIndex(int dim, int64_t i) const {
    if (dim == d_.row_dim) return d_.source_row[static_cast<size_t>(i)];
    if (dim == d_.column_dim) return d_.source_column[static_cast<size_t>(i)];
    return i;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "nearest resize to " << d_.dst_shape[0] << "x" << d_.dst_shape[1] << "x" << d_.dst_shape[2] << "x"
         << d_.dst_shape[3] << " (" << d_.element_bytes << "-byte elements)";
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
