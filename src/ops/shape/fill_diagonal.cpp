// aclnnInplaceFillDiagonal (torch.fill_diagonal_): selfRef[i, i, ...] =
// fillValue for i below the smallest extent; with wrap, a matrix taller than
// it is wide starts a new diagonal every (width + 1) rows, as PyTorch's
// contiguous walk does. Each diagonal is a strided view (stride = the sum of
// the strides), so the op is at most three fills.
#include <algorithm>
#include <cmath>
#include <limits>

#include "aclnnop/aclnn_fill_diagonal.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFillDiagonalDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32,     ACL_INT64, ACL_INT16,
                                          ACL_INT8,  ACL_UINT8,   ACL_BOOL,   ACL_COMPLEX64, ACL_BF16};

// Whether `value` lies outside what `dtype` can hold (CANN checks the real
// and integer dtypes; a NaN passes, as its comparisons fail).
bool Overflows(const ScalarValue& value, aclDataType dtype) {
  const double v = value.As<double>();
  bool outside = false;
  kernels::VisitStorage(dtype, [&](auto tag) {
    using S = decltype(tag);
    if constexpr (std::is_integral_v<S>) {  // the dtypes here are at most 64 bits signed or 8 bits unsigned
      // The limits of an int8_t are numbers here, not characters.
      const auto lowest =
          static_cast<int64_t>(std::numeric_limits<S>::lowest());                // NOLINT(bugprone-signed-char-misuse)
      const auto highest = static_cast<int64_t>(std::numeric_limits<S>::max());  // NOLINT(bugprone-signed-char-misuse)
      outside =
          value.past_int64 || (value.is_integer ? value.integer < lowest || value.integer > highest
                                                : v < static_cast<double>(lowest) || v > static_cast<double>(highest));
    } else if constexpr (std::is_floating_point_v<S>) {
      outside = v < std::numeric_limits<S>::lowest() || v > std::numeric_limits<S>::max();
    } else if constexpr (std::is_same_v<S, kernels::Half>) {
      outside = v < -65504.0 || v > 65504.0;
    }
  });
  return outside;
}

// `count` elements of t from (row, 0) down its diagonal, stride = the sum of the strides.
TensorRef DiagonalFrom(const TensorRef& t, int64_t row, int64_t count) {
  TensorRef d = t;
  int64_t stride = 0;
  for (int64_t s : t.strides) stride += s;
  d.shape = {count};
  d.strides = {stride};
  if (count > 0) d.buffer.byte_offset += row * t.strides[0] * static_cast<int64_t>(DtypeSize(t.dtype));
  return d;
}

aclnnStatus PlanInplaceFillDiagonal(Plan& plan, const aclTensor* self, const aclScalar* fillValue, bool wrap) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kFillDiagonalDtypes));
  CANOPY_CHECK(plan.CheckRank("selfRef", self, 2, 8));
  const Shape& shape = self->view_shape;
  if (self->rank() > 2 && std::adjacent_find(shape.begin(), shape.end(), std::not_equal_to<>()) != shape.end()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "selfRef of shape %s has rank above 2, so its extents must be equal",
                       ShapeToString(shape).c_str());
  }
  if (!CanCast(fillValue->dtype, ACL_FLOAT)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'fillValue' has dtype %s, which cannot be cast to FLOAT",
                       DtypeName(fillValue->dtype));
  }
  const ScalarValue value = ValueOf(*fillValue);
  if (Overflows(value, self->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'fillValue' overflows selfRef's dtype %s",
                       DtypeName(self->dtype));
  }
  plan.Input(self, "selfRef");
  const TensorRef dst = plan.Output(self, "selfRef");
  const int64_t size = *std::min_element(shape.begin(), shape.end());
  if (size == 0) return ACLNN_SUCCESS;
  plan.Fill(DiagonalFrom(dst, 0, size), value);
  const int64_t height = shape[0];
  const int64_t width = shape[1];
  if (!wrap || self->rank() != 2 || height <= width + 1) return ACLNN_SUCCESS;
  // The later diagonals start at rows (width + 1) * j; the full ones as one 2-D view, then the last partial one.
  const int64_t period = width + 1;
  const int64_t full = (height - width) / period;  // diagonals j = 1..full have all `width` elements
  if (full > 0) {
    TensorRef blocks = DiagonalFrom(dst, period, width);
    blocks.shape = {full, width};
    blocks.strides = {period * dst.strides[0], blocks.strides[0]};
    plan.Fill(blocks, value);
  }
  const int64_t last_row = (full + 1) * period;
  if (last_row < height) plan.Fill(DiagonalFrom(dst, last_row, height - last_row), value);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplaceFillDiagonal, PlanInplaceFillDiagonal,
                (OpTraits{.header = "aclnnop/aclnn_fill_diagonal.h",
                          .dtypes = kFillDiagonalDtypes,
                          .in_place = true,
                          .example = "f32[3,3] f32:1 false"}),
                (aclTensor*, selfRef), (const aclScalar*, fillValue), (bool, wrap))
