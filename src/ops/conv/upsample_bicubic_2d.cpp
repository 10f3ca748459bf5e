// aclnnUpsampleBicubic2d: bicubic resampling (Keys' kernel, a = -0.75) of the
// H and W axes of a 4-D NCHW, NHWC or ND (read as NCHW) tensor, as
// torch.nn.functional.interpolate(mode="bicubic"): four taps per axis at
// floor(x) - 1 .. floor(x) + 2, clamped to the input, on the separable
// resampling kernel (oneDNN has no cubic resampling).
#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_upsample_bicubic_2d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "separable.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kBicubicDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr OpTraits kBicubicTraits{
    .header = "aclnnop/aclnn_upsample_bicubic_2d.h", .dtypes = kBicubicDtypes, .max_rank = 4};
constexpr double kScalesTolerance = 1e-5;  // CANN's slack on floor(in * scales) == out

// Keys' cubic convolution weights for a tap at distance d (PyTorch's two pieces).
float CubicNear(float d, float a) { return ((a + 2) * d - (a + 3)) * d * d + 1; }       // |d| <= 1
float CubicFar(float d, float a) { return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a; }  // 1 < |d| < 2

kernels::AxisTaps CubicTaps(int64_t in, int64_t out, bool align_corners, double scales, bool identity) {
  constexpr float kA = -0.75f;
  const float scale = SourceScale<float>(in, out, align_corners, scales);
  kernels::AxisTaps taps;
  for (int64_t i = 0; i < out; ++i) {
    if (identity) {  // PyTorch copies when neither axis changes size
      taps.Add(i, 1.0);
      taps.EndOutput();
      continue;
    }
    // The cubic rule takes the half-pixel coordinate unclamped (it may be negative).
    const float source = align_corners ? scale * static_cast<float>(i) : scale * (static_cast<float>(i) + 0.5f) - 0.5f;
    const float floor = std::floor(source);
    const float t = source - floor;
    const float weights[4] = {CubicFar(t + 1, kA), CubicNear(t, kA), CubicNear(1 - t, kA), CubicFar(2 - t, kA)};
    for (int k = 0; k < 4; ++k) {
      const int64_t at = std::clamp<int64_t>(static_cast<int64_t>(floor) - 1 + k, 0, in - 1);
      taps.Add(at, weights[k]);
    }
    taps.EndOutput();
  }
  return taps;
}

// out == floor(in * scales), within CANN's tolerance, where scales is given.
bool MatchesScales(int64_t in, int64_t out, double scales) {
  if (scales <= 0) return true;
  // Compared as doubles truncated as a cast to int64 would truncate them: a
  // huge scales gives a product no int64 holds.
  const double n = static_cast<double>(in), length = static_cast<double>(out);
  return length == std::trunc(n * scales) || (length >= std::trunc(n * (scales - kScalesTolerance)) &&
                                              length <= std::trunc(n * (scales + kScalesTolerance)));
}

aclnnStatus PlanUpsampleBicubic2d(Plan& plan, const aclTensor* self, const aclIntArray* output_size, bool align_corners,
                                  double scales_h, double scales_w, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kBicubicDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  if (self->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's format (%s) and out's (%s) differ", FormatName(self->format),
                       FormatName(out->format));
  }
  if (self->format != ACL_FORMAT_NCHW && self->format != ACL_FORMAT_NHWC && self->format != ACL_FORMAT_ND) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format %s; NCHW, NHWC or ND is supported",
                       FormatName(self->format));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {2}, 1));
  const bool channels_last = self->format == ACL_FORMAT_NHWC;
  const int64_t channel_dim = channels_last ? 3 : 1, row_dim = channels_last ? 1 : 2, column_dim = row_dim + 1;
  const Shape& in_shape = self->view_shape;
  if (in_shape[channel_dim] <= 0 || in_shape[row_dim] <= 0 || in_shape[column_dim] <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty in C, H or W; only N may be empty",
                       ShapeToString(in_shape).c_str());
  }
  Shape expected = in_shape;
  expected[row_dim] = output_size->values[0];
  expected[column_dim] = output_size->values[1];
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  if (!MatchesScales(in_shape[row_dim], expected[row_dim], scales_h) ||
      !MatchesScales(in_shape[column_dim], expected[column_dim], scales_w)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "scalesH %g / scalesW %g conflict with outputSize (%lld, %lld): a given scale must give "
                       "floor(input size * scale)",
                       scales_h, scales_w, static_cast<long long>(expected[row_dim]),
                       static_cast<long long>(expected[column_dim]));
  }

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch (CANN's code)
  if (channels_last) {                             // the kernel's [N, C, H, W] order, as views
    x = Permute(x, {0, 3, 1, 2});
    y = Permute(y, {0, 3, 1, 2});
  }
  const bool identity = x.shape[2] == y.shape[2] && x.shape[3] == y.shape[3];
  PlanSeparable(plan, x, y, CubicTaps(x.shape[2], y.shape[2], align_corners, scales_h, identity),
                CubicTaps(x.shape[3], y.shape[3], align_corners, scales_w, identity),
                kernels::SeparableReduce::kWeightedSum, "bicubic resample");
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleBicubic2d, PlanUpsampleBicubic2d,
                WithExample(kBicubicTraits, "f32[1,1,3,3] ints[5,5] false 0 0 f32[1,1,5,5]"), (const aclTensor*, self),
                (const aclIntArray*, outputSize), (bool, alignCorners), (double, scalesH), (double, scalesW),
                (aclTensor*, out))
