// aclnnIm2col: PyTorch's unfold. Every kernelSize window of self's two spatial
// dimensions (stride, dilation, zero padding) becomes a column of out:
// out[n, (c * kh + i) * kw + j, oh * OW + ow] = self[n, c, oh * sh - ph + i * dh, ow * sw - pw + j * dw],
// 0 outside self. A 3-D self (C, H, W) gives a 2-D out. One gather step in
// self's dtype; out of another dtype is converted by a copy after it.
#include <cstring>
#include <string>

#include "aclnnop/aclnn_im2col.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"
#include "strided_loops.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIm2colDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

struct Window {
  int64_t kernel[2], dilation[2], padding[2], stride[2], out[2];
};

// src is [N, C, H, W], dst [N, C * kh * kw, OH * OW], both of one dtype.
class Im2colStep final : public Step {
 public:
  Im2colStep(const TensorRef& src, const TensorRef& dst, const Window& w) : src_(src), dst_(dst), w_(w) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(src_.buffer);
    char* dst = context.Resolve(dst_.buffer);
    const auto bytes = static_cast<size_t>(DtypeSize(src_.dtype));
    const int64_t height = src_.shape[2], width = src_.shape[3];
    const int64_t out_w = w_.out[1];
    const Shape& s = src_.strides;
    const Shape& t = dst_.strides;
    for (int64_t n = 0; n < src_.shape[0]; ++n) {
      for (int64_t c = 0; c < src_.shape[1]; ++c) {
        for (int64_t i = 0; i < w_.kernel[0]; ++i) {
          for (int64_t j = 0; j < w_.kernel[1]; ++j) {
            const int64_t row = (c * w_.kernel[0] + i) * w_.kernel[1] + j;
            char* column = dst + (n * t[0] + row * t[1]) * static_cast<int64_t>(bytes);
            for (int64_t oh = 0; oh < w_.out[0]; ++oh) {
              const int64_t h = oh * w_.stride[0] - w_.padding[0] + i * w_.dilation[0];
              for (int64_t ow = 0; ow < out_w; ++ow) {
                const int64_t x = ow * w_.stride[1] - w_.padding[1] + j * w_.dilation[1];
                char* to = column + (oh * out_w + ow) * t[2] * static_cast<int64_t>(bytes);
                if (h < 0 || h >= height || x < 0 || x >= width) {
                  std::memset(to, 0, bytes);  // zero of each of these dtypes is all-zero bytes
                } else {
                  std::memcpy(to, src + (n * s[0] + c * s[1] + h * s[2] + x * s[3]) * static_cast<int64_t>(bytes),
                              bytes);
                }
              }
            }
          }
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "im2col " + ShapeToString(src_.shape) + " kernel " + std::to_string(w_.kernel[0]) + "x" +
           std::to_string(w_.kernel[1]) + " -> " + ShapeToString(dst_.shape) + " " + DtypeName(src_.dtype);
  }

 private:
  TensorRef src_;
  TensorRef dst_;
  Window w_;
};

// Floor division (the numerator may be negative).
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

aclnnStatus CheckIm2col(Plan& plan, const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* dilation,
                        const aclIntArray* padding, const aclIntArray* stride, const aclTensor* out, Window& w) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kIm2colDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 4));
  const int64_t rank = self->rank();
  for (int64_t d = rank == 4 ? 1 : 0; d < rank; ++d) {
    if (self->view_shape[static_cast<size_t>(d)] <= 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self of shape %s: only a 4-D self's batch may be empty",
                         ShapeToString(self->view_shape).c_str());
    }
  }
  const struct {
    const char* name;
    const aclIntArray* array;
    int64_t* values;
    int64_t min;
  } arrays[] = {{"kernelSize", kernelSize, w.kernel, 1},
                {"dilation", dilation, w.dilation, 1},
                {"padding", padding, w.padding, 0},
                {"stride", stride, w.stride, 1}};
  for (const auto& a : arrays) {
    if (a.array->values.size() != 2) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has %zu values; it needs 2", a.name,
                         a.array->values.size());
    }
  }
  for (const auto& a : arrays) {
    for (size_t i = 0; i < 2; ++i) {
      // Bounded so that the window arithmetic below cannot overflow.
      constexpr int64_t kLimit = int64_t{1} << 31;
      if (a.array->values[i] < a.min || a.array->values[i] > kLimit) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' holds %lld; it must be in [%lld, 2^31]", a.name,
                           static_cast<long long>(a.array->values[i]), static_cast<long long>(a.min));
      }
      a.values[i] = a.array->values[i];
    }
  }
  const int64_t spatial[2] = {self->view_shape[static_cast<size_t>(rank - 2)],
                              self->view_shape[static_cast<size_t>(rank - 1)]};
  for (size_t i = 0; i < 2; ++i) {
    w.out[i] = FloorDiv(spatial[i] + 2 * w.padding[i] - (w.dilation[i] * (w.kernel[i] - 1) + 1), w.stride[i]) + 1;
  }
  if (w.out[0] < 1 || w.out[1] < 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "the windows of self %s give an output of %lld x %lld blocks; it must be at least 1 x 1",
                       ShapeToString(self->view_shape).c_str(), static_cast<long long>(w.out[0]),
                       static_cast<long long>(w.out[1]));
  }
  int64_t rows = 0, blocks = 0;
  if (__builtin_mul_overflow(self->view_shape[static_cast<size_t>(rank - 3)], w.kernel[0], &rows) ||
      __builtin_mul_overflow(rows, w.kernel[1], &rows) || __builtin_mul_overflow(w.out[0], w.out[1], &blocks)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the columns of self %s with kernel %lld x %lld do not fit int64",
                       ShapeToString(self->view_shape).c_str(), static_cast<long long>(w.kernel[0]),
                       static_cast<long long>(w.kernel[1]));
  }
  Shape expected = {rows, blocks};
  if (rank == 4) expected.insert(expected.begin(), self->view_shape[0]);
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kIm2colDtypes));
  return plan.CheckShape("out", out, expected);
}

aclnnStatus PlanIm2col(Plan& plan, const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* dilation,
                       const aclIntArray* padding, const aclIntArray* stride, const aclTensor* out) {
  Window w{};
  CANOPY_CHECK(CheckIm2col(plan, self, kernelSize, dilation, padding, stride, out, w));
  TensorRef src = plan.Input(self, "self");
  TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  if (src.rank() == 3) {
    src = Unsqueeze(src, 0);
    dst = Unsqueeze(dst, 0);
  }
  if (dst.dtype == src.dtype) {
    plan.AddStep(std::make_unique<Im2colStep>(src, dst, w), {src}, dst);
    return ACLNN_SUCCESS;
  }
  const TensorRef columns = plan.Temporary(src.dtype, dst.shape);
  plan.AddStep(std::make_unique<Im2colStep>(src, columns, w), {src}, columns);
  plan.Copy(columns, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Im2col, PlanIm2col,
                (OpTraits{.header = "aclnnop/aclnn_im2col.h",
                          .dtypes = kIm2colDtypes,
                          .example = "f32[2,2,2] ints[1,1] ints[1,1] ints[0,0] ints[1,1] f32[2,4]"}),
                (const aclTensor*, self), (const aclIntArray*, kernelSize), (const aclIntArray*, dilation),
                (const aclIntArray*, padding), (const aclIntArray*, stride), (const aclTensor*, out))
