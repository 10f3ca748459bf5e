// aclnnResize: self [N, C, H, W] resized to out's height and width as CANN's
// Atlas A2 path runs it, TensorFlow's ResizeNearestNeighborV2 and
// ResizeBilinearV2 with align_corners and half_pixel_centers false: the
// source of output index i is i * in / out; "nearest" takes min(floor(it),
// in - 1), "bilinear" interpolates between floor(it) and the next index
// (clamped to the last). scales must hold four values; the sizes come from
// out, whose H and W CANN's A2 host code checks against self's times scales
// (within 1e-5 of the scale). Planned as taps on
// the separable resampling kernel (separable.h).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_resize.h"
#include "ops/framework/aclnn_op.h"
#include "separable.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kResizeDtypes = {ACL_FLOAT16, ACL_FLOAT};
constexpr double kScaleTolerance = 1e-5;  // CANN's EPSILON on a scale

kernels::AxisTaps AsymmetricTaps(int64_t in, int64_t out, bool nearest) {
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  kernels::AxisTaps taps;
  for (int64_t i = 0; i < out; ++i) {
    const float source = static_cast<float>(i) * scale;
    const int64_t lo = std::min(static_cast<int64_t>(std::floor(source)), in - 1);
    if (nearest) {
      taps.Add(lo, 1.0);
    } else {
      const int64_t hi = std::min(lo + 1, in - 1);
      const float lambda = source - static_cast<float>(lo);
      if (hi == lo) {  // past the last index: its value alone
        taps.Add(lo, 1.0);
      } else {
        taps.Add(lo, static_cast<double>(1.0F - lambda));
        taps.Add(hi, static_cast<double>(lambda));
      }
    }
    taps.EndOutput();
  }
  return taps;
}

aclnnStatus PlanResize(Plan& plan, const aclTensor* self, const aclFloatArray* scales, const char* mode,
                       const aclTensor* out) {
  const bool nearest = std::strncmp(mode, "nearest", std::strlen("nearest")) == 0;
  if (!nearest && std::strncmp(mode, "bilinear", std::strlen("bilinear")) != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'mode' is \"%s\"; it must be \"nearest\" or \"bilinear\"",
                       mode);
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kResizeDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  if (self->format != ACL_FORMAT_NCHW || out->format != ACL_FORMAT_NCHW) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self and out must be NCHW (self %d, out %d)",
                       static_cast<int>(self->format), static_cast<int>(out->format));
  }
  if (self->rank() != 4 || out->rank() != 4 || scales->values.size() != 4) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s and out %s must be 4-D and 'scales' hold 4 values (%zu)",
                       ShapeToString(self->view_shape).c_str(), ShapeToString(out->view_shape).c_str(),
                       scales->values.size());
  }
  const Shape& s = self->view_shape;
  const Shape& o = out->view_shape;
  if (s[0] != o[0] || s[1] != o[1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out %s must keep self's %s batch and channels",
                       ShapeToString(o).c_str(), ShapeToString(s).c_str());
  }
  // CANN's A2 host code (its extended path) takes out's H and W only within 1e-5 of self's times scales.
  for (const size_t d : {size_t{2}, size_t{3}}) {
    const double scale = static_cast<double>(scales->values[d]);
    const auto low = static_cast<int64_t>(static_cast<double>(s[d]) * (scale - kScaleTolerance));
    const auto high = static_cast<int64_t>(static_cast<double>(s[d]) * (scale + kScaleTolerance));
    if (o[d] < low || o[d] > high) {
      return plan.Reject(
          ACLNN_ERR_PARAM_INVALID,
          "out %s does not match self %s times 'scales' [%g, %g, %g, %g]: dim %zu must be in [%lld, %lld]",
          ShapeToString(o).c_str(), ShapeToString(s).c_str(), scales->values[0], scales->values[1], scales->values[2],
          scales->values[3], d, static_cast<long long>(low), static_cast<long long>(high));
    }
  }
  if (self->NumElements() == 0 && out->NumElements() != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' of shape %s is empty", ShapeToString(s).c_str());
  }
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  PlanSeparable(plan, src, dst, AsymmetricTaps(s[2], o[2], nearest), AsymmetricTaps(s[3], o[3], nearest),
                kernels::SeparableReduce::kWeightedSum, nearest ? "resize nearest" : "resize bilinear");
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Resize, PlanResize,
                (OpTraits{.header = "aclnnop/aclnn_resize.h",
                          .dtypes = kResizeDtypes,
                          .example = "f32[1,2,4,4]@NCHW floats[1,1,2,2] 'bilinear' f32[1,2,8,8]@NCHW"}),
                (const aclTensor*, self), (const aclFloatArray*, scales), (const char*, mode), (aclTensor*, out))
