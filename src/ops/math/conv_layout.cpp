#include "conv_layout.h"

#include <cstring>
#include <memory>
#include <string>

#include "common/dtype.h"
#include "common/shape.h"

namespace canopy::ops {

namespace {

// Moves every element between a plain convolution tensor and its blocked
// storage; to the blocked side the storage is zeroed first (the padding).
class ConvLayoutStep final : public Step {
 public:
  ConvLayoutStep(const TensorRef& plain, const TensorRef& blocked, const ConvAxes& axes, ConvBlocking blocking,
                 int64_t c0, bool to_blocked)
      : plain_(plain), blocked_(blocked), axes_(axes), blocking_(blocking), c0_(c0), to_blocked_(to_blocked) {}

  aclnnStatus Run(const RunContext& context) const override {
    char* plain = context.Resolve(plain_.buffer);
    char* blocked = context.Resolve(blocked_.buffer);
    const auto size = static_cast<int64_t>(DtypeSize(plain_.dtype));
    if (to_blocked_) std::memset(blocked, 0, static_cast<size_t>(blocked_.NumElements() * size));
    const int64_t c1_count = CeilDiv(axes_.c, c0_), n1_count = CeilDiv(axes_.n, kConvFractalN0);
    for (int64_t n = 0; n < axes_.n; ++n) {
      for (int64_t c = 0; c < axes_.c; ++c) {
        const int64_t c1 = c / c0_, c0 = c % c0_;
        for (int64_t d = 0; d < axes_.d; ++d) {
          for (int64_t h = 0; h < axes_.h; ++h) {
            for (int64_t w = 0; w < axes_.w; ++w) {
              const int64_t plain_index = n * axes_.n_stride + c * axes_.c_stride + d * axes_.d_stride +
                                          h * axes_.h_stride + w * axes_.w_stride;
              int64_t blocked_index = 0;
              if (blocking_ == ConvBlocking::kChannels) {
                blocked_index = ((((n * axes_.d + d) * c1_count + c1) * axes_.h + h) * axes_.w + w) * c0_ + c0;
              } else {
                const int64_t row = ((d * c1_count + c1) * axes_.h + h) * axes_.w + w;
                blocked_index =
                    ((row * n1_count + n / kConvFractalN0) * kConvFractalN0 + n % kConvFractalN0) * c0_ + c0;
              }
              char* plain_element = plain + plain_index * size;
              char* blocked_element = blocked + blocked_index * size;
              if (to_blocked_) {
                std::memcpy(blocked_element, plain_element, static_cast<size_t>(size));
              } else {
                std::memcpy(plain_element, blocked_element, static_cast<size_t>(size));
              }
            }
          }
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("convolution layout ") + (to_blocked_ ? "to " : "from ") + "blocked storage " +
           ShapeToString(blocked_.shape);
  }

 private:
  TensorRef plain_;
  TensorRef blocked_;
  ConvAxes axes_;
  ConvBlocking blocking_;
  int64_t c0_;
  bool to_blocked_;
};

}  // namespace

ConvAxes ConvAxesFrom(std::string_view letters, const Shape& shape, const Shape& strides) {
  ConvAxes axes;
  for (size_t i = 0; i < letters.size(); ++i) {
    const int64_t extent = shape[i], stride = strides.empty() ? 0 : strides[i];
    switch (letters[i]) {
      case 'N':
        axes.n = extent, axes.n_stride = stride;
        break;
      case 'C':
        axes.c = extent, axes.c_stride = stride;
        break;
      case 'D':
        axes.d = extent, axes.d_stride = stride;
        break;
      case 'H':
        axes.h = extent, axes.h_stride = stride;
        break;
      default:
        axes.w = extent, axes.w_stride = stride;
        break;
    }
  }
  return axes;
}

Shape ConvBlockedShape(ConvBlocking blocking, const ConvAxes& axes, bool three_d, int64_t c0) {
  const int64_t c1 = CeilDiv(axes.c, c0);
  if (blocking == ConvBlocking::kChannels) {
    return three_d ? Shape{axes.n, axes.d, c1, axes.h, axes.w, c0} : Shape{axes.n, c1, axes.h, axes.w, c0};
  }
  return {axes.d * c1 * axes.h * axes.w, CeilDiv(axes.n, kConvFractalN0), kConvFractalN0, c0};
}

void AddConvLayoutStep(Plan& plan, const TensorRef& plain, const TensorRef& blocked, const ConvAxes& axes,
                       ConvBlocking blocking, int64_t c0, bool to_blocked) {
  auto step = std::make_unique<ConvLayoutStep>(plain, blocked, axes, blocking, c0, to_blocked);
  if (to_blocked) {
    plan.AddStep(std::move(step), {plain}, blocked);
  } else {
    plan.AddStep(std::move(step), {blocked}, plain);
  }
}

}  // namespace canopy::ops
