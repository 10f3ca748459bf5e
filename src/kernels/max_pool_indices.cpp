#include "max_pool_indices.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

class MaxPoolIndicesStep final : public Step {
 public:
  explicit MaxPoolIndicesStep(MaxPoolIndicesDesc desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    VisitStorage(d_.dtype, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
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
         << d_.src_shape[3] << " -> " << d_.out_extent[0] << "x" << d_.out_extent[1] << " window " << d_.kernel[0]
         << "x" << d_.kernel[1];
    return text.str();
  }

 private:
  template <typename T, typename Index>
  void RunTyped(const RunContext& context) const {
    const T* src = reinterpret_cast<const T*>(context.Resolve(d_.src));
    T* dst = reinterpret_cast<T*>(context.Resolve(d_.dst));
    Index* indices = reinterpret_cast<Index*>(context.Resolve(d_.indices));
    const int64_t channels = d_.src_shape[1], height = d_.src_shape[2], width = d_.src_shape[3];
    const int64_t out_h = d_.out_extent[0], out_w = d_.out_extent[1];
    ParallelFor(d_.src_shape[0] * channels * out_h, 4, [&](int64_t begin, int64_t end) {
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t oh = unit % out_h, c = unit / out_h % channels, n = unit / (out_h * channels);
        const T* plane = src + n * d_.src_strides[0] + c * d_.src_strides[1];
        int64_t h0 = oh * d_.stride[0] - d_.pad[0];
        const int64_t h1 = std::min(h0 + (d_.kernel[0] - 1) * d_.dilation[0] + 1, height);
        while (h0 < 0) h0 += d_.dilation[0];
        for (int64_t ow = 0; ow < out_w; ++ow) {
          int64_t w0 = ow * d_.stride[1] - d_.pad[1];
          const int64_t w1 = std::min(w0 + (d_.kernel[1] - 1) * d_.dilation[1] + 1, width);
          while (w0 < 0) w0 += d_.dilation[1];
          float best = -std::numeric_limits<float>::infinity();
          int64_t best_index = h0 * width + w0;
          T best_value = plane[h0 * d_.src_strides[2] + w0 * d_.src_strides[3]];
          for (int64_t h = h0; h < h1; h += d_.dilation[0]) {
            for (int64_t w = w0; w < w1; w += d_.dilation[1]) {
              const T value = plane[h * d_.src_strides[2] + w * d_.src_strides[3]];
              const float v = Convert<float>(value);
              if (v > best || std::isnan(v)) {
                best = v;
                best_index = h * width + w;
                best_value = value;
              }
            }
          }
          dst[n * d_.dst_strides[0] + c * d_.dst_strides[1] + oh * d_.dst_strides[2] + ow * d_.dst_strides[3]] =
              best_value;
          indices[n * d_.index_strides[0] + c * d_.index_strides[1] + oh * d_.index_strides[2] +
                  ow * d_.index_strides[3]] = static_cast<Index>(best_index);
        }
      }
    });
  }

  MaxPoolIndicesDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeMaxPoolIndicesStep(MaxPoolIndicesDesc desc) {
  return std::make_unique<MaxPoolIndicesStep>(desc);
}

}  // namespace canopy::kernels
