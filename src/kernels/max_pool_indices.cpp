#include "max_pool_indices.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

class MaxPoolIndicesStep final : public Step {
 public:
  explicit MaxPoolIndicesStep(MaxPoolIndicesDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    VisitStorage(d_.dtype, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16> ||
                    std::is_same_v<T, double>) {
        if (d_.index_dtype == ACL_INT32) {
          RunTyped<T, int32_t>(context);
        } else {
          RunTyped<T, int64_t>(context);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "max pool with indices " << d_.src_shape[0] << "x" << d_.src_shape[1] << "x" << d_.src_shape[2] << "x"
         << d_.src_shape[3] << "x" << d_.src_shape[4] << " -> " << d_.windows[0].size() << "x" << d_.windows[1].size()
         << "x" << d_.windows[2].size();
    return text.str();
  }

 private:
  template <typename T, typename Index>
  void RunTyped(const RunContext& context) const {
    using Compute = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const T* src = reinterpret_cast<const T*>(context.Resolve(d_.src));
    T* dst = reinterpret_cast<T*>(context.Resolve(d_.dst));
    Index* indices = reinterpret_cast<Index*>(context.Resolve(d_.indices));
    const int64_t channels = d_.src_shape[1], height = d_.src_shape[3], width = d_.src_shape[4];
    const auto& wd = d_.windows[0];
    const auto& wh = d_.windows[1];
    const auto& ww = d_.windows[2];
    const int64_t out_d = static_cast<int64_t>(wd.size()), out_h = static_cast<int64_t>(wh.size());
    const int64_t out_w = static_cast<int64_t>(ww.size());
    const auto& ss = d_.src_strides;
    // One output row (n, c, od, oh) per unit; a static split.
    ParallelFor(d_.src_shape[0] * channels * out_d * out_h, 4, [&](int64_t begin, int64_t end) {
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t oh = unit % out_h, od = unit / out_h % out_d;
        const int64_t c = unit / (out_h * out_d) % channels, n = unit / (out_h * out_d * channels);
        const T* volume = src + n * ss[0] + c * ss[1];
        const PoolWindow& a = wd[static_cast<size_t>(od)];
        const PoolWindow& b = wh[static_cast<size_t>(oh)];
        for (int64_t ow = 0; ow < out_w; ++ow) {
          const PoolWindow& e = ww[static_cast<size_t>(ow)];
          Compute best = -std::numeric_limits<Compute>::infinity();
          int64_t best_index = (a.begin * height + b.begin) * width + e.begin;
          T best_value = volume[a.begin * ss[2] + b.begin * ss[3] + e.begin * ss[4]];
          for (int64_t z = a.begin; z < a.end; z += a.step) {
            for (int64_t y = b.begin; y < b.end; y += b.step) {
              for (int64_t x = e.begin; x < e.end; x += e.step) {
                const T value = volume[z * ss[2] + y * ss[3] + x * ss[4]];
                const Compute v = Convert<Compute>(value);
                if (v > best || std::isnan(v)) {
                  best = v;
                  best_index = (z * height + y) * width + x;
                  best_value = value;
                }
              }
            }
          }
          const std::array<int64_t, 5> at = {n, c, od, oh, ow};
          int64_t dst_offset = 0, index_offset = 0;
          for (size_t k = 0; k < 5; ++k) {
            dst_offset += at[k] * d_.dst_strides[k];
            index_offset += at[k] * d_.index_strides[k];
          }
          dst[dst_offset] = best_value;
          indices[index_offset] = static_cast<Index>(best_index);
        }
      }
    });
  }

  MaxPoolIndicesDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeMaxPoolIndicesStep(MaxPoolIndicesDesc desc) {
  return std::make_unique<MaxPoolIndicesStep>(std::move(desc));
}

}  // namespace canopy::kernels
