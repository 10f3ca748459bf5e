#include "separable_resample.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

template <typename T>
T Combine(SeparableReduce reduce, T acc, T weight, T value) {
  if (reduce == SeparableReduce::kMax) return value > acc || std::isnan(value) ? value : acc;
  return acc + weight * value;
}

class SeparableResampleStep final : public Step {
 public:
  explicit SeparableResampleStep(SeparableResampleDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    if (d_.src_dtype == ACL_DOUBLE) {
      RunTyped<double>(context);
    } else {
      RunTyped<float>(context);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << d_.what << " of " << d_.planes << " planes to " << d_.rows.outputs() << "x" << d_.columns.outputs() << " ("
         << d_.rows.index.size() << " row taps, " << d_.columns.index.size() << " column taps)";
    return text.str();
  }

 private:
  template <typename T>
  void RunTyped(const RunContext& context) const {
    const char* src = context.Resolve(d_.src);
    char* dst = context.Resolve(d_.dst);
    const int64_t out_rows = d_.rows.outputs(), out_columns = d_.columns.outputs();
    const int64_t src_bytes = static_cast<int64_t>(DtypeSize(d_.src_dtype));
    const int64_t dst_bytes = static_cast<int64_t>(DtypeSize(d_.dst_dtype));
    const T start = d_.reduce == SeparableReduce::kMax ? -std::numeric_limits<T>::infinity() : T(0);
    // One output row of one plane per unit; a static split (deterministic sums).
    ParallelFor(d_.planes * out_rows, 4, [&](int64_t begin, int64_t end) {
      std::vector<T> line(static_cast<size_t>(d_.src_width)), acc(line.size()), out(static_cast<size_t>(out_columns));
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t plane = unit / out_rows, y = unit % out_rows;
        const int64_t n = plane / d_.channels, c = plane % d_.channels;
        const char* src_plane = src + (n * d_.src_strides[0] + c * d_.src_strides[1]) * src_bytes;
        std::fill(acc.begin(), acc.end(), start);
        for (int64_t t = d_.rows.first[static_cast<size_t>(y)]; t < d_.rows.first[static_cast<size_t>(y) + 1]; ++t) {
          const int64_t r = d_.rows.index[static_cast<size_t>(t)];
          const T a = static_cast<T>(d_.rows.weight[static_cast<size_t>(t)]);
          Load(d_.src_dtype, src_plane + r * d_.src_strides[2] * src_bytes, d_.src_strides[3], d_.src_width,
               line.data());
          for (size_t i = 0; i < line.size(); ++i) acc[i] = Combine(d_.reduce, acc[i], a, line[i]);
        }
        for (int64_t x = 0; x < out_columns; ++x) {
          T value = start;
          for (int64_t t = d_.columns.first[static_cast<size_t>(x)]; t < d_.columns.first[static_cast<size_t>(x) + 1];
               ++t) {
            value = Combine(d_.reduce, value, static_cast<T>(d_.columns.weight[static_cast<size_t>(t)]),
                            acc[static_cast<size_t>(d_.columns.index[static_cast<size_t>(t)])]);
          }
          out[static_cast<size_t>(x)] = value;
        }
        char* dst_row = dst + (n * d_.dst_strides[0] + c * d_.dst_strides[1] + y * d_.dst_strides[2]) * dst_bytes;
        Store(out.data(), d_.dst_dtype, dst_row, d_.dst_strides[3], out_columns);
      }
    });
  }

  SeparableResampleDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeSeparableResampleStep(SeparableResampleDesc desc) {
  return std::make_unique<SeparableResampleStep>(std::move(desc));
}

}  // namespace canopy::kernels
