#include "max_pool2d.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "common/dtype.h"
#include "cpu_features.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#if defined(__x86_64__)
#include "avx512_lanes.h"
#endif

// Each output row (n, c, oh) is two passes over a row buffer of f32: the
// vertical maxima of its window's input rows, column by column; then each
// output's maximum over its window of that buffer. On the vector path the
// buffer holds runs of -inf that stand for the left and right padding (and the
// columns a ceil-mode window reaches past it), so no window needs clipping and
// one lying wholly in the padding reads only -inf; the portable path clips
// each window to the input instead, starting from -inf.
namespace canopy::kernels {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// The vector path's bound on the padding its buffer holds and on the stride.
constexpr int64_t kMaxMargin = 256;
constexpr int64_t kPrefetchRows = 4;

// max(a, b), NaN in either winning.
inline float MaxNan(float a, float b) { return a != a || a > b ? a : b; }

#if defined(__x86_64__)
using avx512::Bf16;
using avx512::F16;
using avx512::F32;
using avx512::LanesBelow;

CANOPY_AVX512 __m512 MaxNanLanes(__m512 acc, __m512 v) {
  const __m512 larger = _mm512_max_ps(acc, v);  // v where either is NaN
  return _mm512_mask_mov_ps(larger, _mm512_cmp_ps_mask(acc, acc, _CMP_UNORD_Q), acc);
}

// buf[i] = the maximum of rows[r][i] over the rows, 16 columns at a time.
template <typename S>
CANOPY_AVX512_TARGET void VerticalLanes(const char* first, int64_t row_bytes, int64_t rows, int64_t width, float* buf) {
  using Element = typename S::Element;
  // A row at a time (each read in order), the maxima kept in buf (in L1). The
  // first row's pass also prefetches the row kPrefetchRows past the window:
  // without it, 8 x 64 x 112 x 112 f32 read at 10 GB/s here (2.6 ms for the
  // rows alone, 0.85 with it), the hardware prefetch losing rows this short.
  const char* ahead = first + (rows + kPrefetchRows) * row_bytes;
  for (int64_t r = 0; r < rows; ++r) {
    const auto* row = reinterpret_cast<const Element*>(first + r * row_bytes);
    for (int64_t i = 0; i < width; i += 16) {
      const __mmask16 m = LanesBelow(std::min<int64_t>(16, width - i));
      const __m512 v = S::Load(row + i, m);
      if (r == 0) {
        _mm_prefetch(ahead + i * static_cast<int64_t>(sizeof(Element)), _MM_HINT_T0);
        F32::Store(buf + i, v, m);
      } else {
        F32::Store(buf + i, MaxNanLanes(F32::Load(buf + i, m), v), m);
      }
    }
  }
}

// at[l * stride] for the 16 lanes l: a load, every other element of two, or a gather.
CANOPY_AVX512 __m512 StridedLanes(const float* at, int64_t stride, __m512i even, __m512i steps) {
  if (stride == 1) return _mm512_loadu_ps(at);
  if (stride == 2) return _mm512_permutex2var_ps(_mm512_loadu_ps(at), even, _mm512_loadu_ps(at + 16));
  return _mm512_i32gather_ps(steps, at, 4);
}

// out[o] = the maximum of buf[o * stride + j] over j < kernel, 16 outputs at
// a time; buf holds 16 * stride + kernel readable elements past the last window.
template <typename S>
CANOPY_AVX512_TARGET void HorizontalLanes(const float* buf, int64_t outputs, int64_t kernel, int64_t stride,
                                          typename S::Element* out) {
  const __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i even = _mm512_slli_epi32(lanes, 1);  // 0, 2, ... 30 of two vectors
  const __m512i steps = _mm512_mullo_epi32(lanes, _mm512_set1_epi32(static_cast<int>(stride)));
  for (int64_t o = 0; o < outputs; o += 16) {
    const float* at = buf + o * stride;
    __m512 acc = StridedLanes(at, stride, even, steps);
    for (int64_t j = 1; j < kernel; ++j) acc = MaxNanLanes(acc, StridedLanes(at + j, stride, even, steps));
    S::Store(out + o, acc, LanesBelow(std::min<int64_t>(16, outputs - o)));
  }
}
#endif

class MaxPool2dStep final : public Step {
 public:
  explicit MaxPool2dStep(const MaxPool2dDesc& desc) : d_(desc) {
    const MaxPool2dAxis& w = d_.axes[1];
    width_ = d_.src_shape[3];
    // Columns the windows reach before and past the input.
    const int64_t past = std::max<int64_t>((d_.dst_extent[1] - 1) * w.stride + w.kernel - w.pad_front - width_, 0);
#if defined(__x86_64__)
    lanes_ = avx512::Available() && d_.src_strides[3] == 1 && d_.dst_strides[3] == 1 &&
             (d_.dtype == ACL_FLOAT || d_.dtype == ACL_FLOAT16 || d_.dtype == ACL_BF16) && w.pad_front <= kMaxMargin &&
             past <= kMaxMargin && w.stride <= kMaxMargin;
#endif
    // The vector path reads windows whole from a buffer padded with -inf (and
    // a vector's worth more); the portable one clips each window to the input.
    front_ = lanes_ ? w.pad_front : 0;
    buffer_ = lanes_ ? front_ + width_ + past + 16 * w.stride + 32 : width_;
  }

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(d_.src);
    char* dst = context.Resolve(d_.dst);
    const auto bytes = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t channels = d_.src_shape[1], height = d_.src_shape[2];
    const int64_t out_h = d_.dst_extent[0], out_w = d_.dst_extent[1];
    const MaxPool2dAxis& ah = d_.axes[0];
    const MaxPool2dAxis& aw = d_.axes[1];
    ParallelFor(d_.src_shape[0] * channels * out_h, 4, [&](int64_t begin, int64_t end) {
      std::vector<float> buf(static_cast<size_t>(buffer_), kNegInf), row(static_cast<size_t>(width_));
      std::vector<float> out(static_cast<size_t>(out_w));
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t oh = unit % out_h, c = unit / out_h % channels, n = unit / (out_h * channels);
        const char* plane = src + (n * d_.src_strides[0] + c * d_.src_strides[1]) * bytes;
        char* out_row = dst + (n * d_.dst_strides[0] + c * d_.dst_strides[1] + oh * d_.dst_strides[2]) * bytes;
        const int64_t start = oh * ah.stride - ah.pad_front;
        const int64_t h0 = std::max<int64_t>(start, 0), h1 = std::min(start + ah.kernel, height);
        float* columns = buf.data() + front_;
        if (h0 >= h1) {
          std::fill(columns, columns + width_, kNegInf);  // a window of padding rows only
        } else {
          Vertical(plane + h0 * d_.src_strides[2] * bytes, d_.src_strides[2] * bytes, h1 - h0, columns, row.data());
        }
        Horizontal(buf.data(), out_w, aw.kernel, aw.stride, out.data(), out_row);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "max pool " << d_.src_shape[0] << "x" << d_.src_shape[1] << "x" << d_.src_shape[2] << "x" << d_.src_shape[3]
         << " -> " << d_.dst_extent[0] << "x" << d_.dst_extent[1] << " " << DtypeName(d_.dtype)
         << (lanes_ ? " (AVX-512)" : "");
    return text.str();
  }

 private:
  // columns[i] = the maximum over `rows` input rows (row_bytes apart, from `first`) of column i.
  void Vertical(const char* first, int64_t row_bytes, int64_t rows, float* columns, float* row) const {
#if defined(__x86_64__)
    if (lanes_) {
      switch (d_.dtype) {
        case ACL_FLOAT16:
          return VerticalLanes<F16>(first, row_bytes, rows, width_, columns);
        case ACL_BF16:
          return VerticalLanes<Bf16>(first, row_bytes, rows, width_, columns);
        default:
          return VerticalLanes<F32>(first, row_bytes, rows, width_, columns);
      }
    }
#endif
    const int64_t step = d_.src_strides[3];
    Load(d_.dtype, first, step, width_, columns);
    for (int64_t r = 1; r < rows; ++r) {
      Load(d_.dtype, first + r * row_bytes, step, width_, row);
      for (int64_t i = 0; i < width_; ++i) columns[i] = MaxNan(columns[i], row[i]);
    }
  }

  // Each output's maximum over its window of buf, stored to out_row.
  void Horizontal(const float* buf, int64_t outputs, int64_t kernel, int64_t stride, float* out, char* out_row) const {
#if defined(__x86_64__)
    if (lanes_) {
      switch (d_.dtype) {
        case ACL_FLOAT16:
          return HorizontalLanes<F16>(buf, outputs, kernel, stride, reinterpret_cast<uint16_t*>(out_row));
        case ACL_BF16:
          return HorizontalLanes<Bf16>(buf, outputs, kernel, stride, reinterpret_cast<uint16_t*>(out_row));
        default:
          return HorizontalLanes<F32>(buf, outputs, kernel, stride, reinterpret_cast<float*>(out_row));
      }
    }
#endif
    const int64_t pad = d_.axes[1].pad_front;
    for (int64_t o = 0; o < outputs; ++o) {
      const int64_t start = o * stride - pad;
      const int64_t lo = std::max<int64_t>(start, 0), hi = std::min(start + kernel, width_);
      float m = kNegInf;  // the padding's value
      for (int64_t i = lo; i < hi; ++i) m = MaxNan(m, buf[i]);
      out[o] = m;
    }
    Store(out, d_.dtype, out_row, d_.dst_strides[3], outputs);
  }

  MaxPool2dDesc d_;
  int64_t width_ = 0;
  int64_t front_ = 0, buffer_ = 0;  // the row buffer: -inf before column 0, its length
  bool lanes_ = false;
};

}  // namespace

std::unique_ptr<Step> MakeMaxPool2dStep(const MaxPool2dDesc& desc) { return std::make_unique<MaxPool2dStep>(desc); }

}  // namespace canopy::kernels
