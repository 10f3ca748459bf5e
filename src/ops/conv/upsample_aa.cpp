// aclnnUpsampleBilinear2dAA and aclnnUpsampleBicubic2dAA (torch's
// interpolate with antialias=True): each output pixel is a normalised,
// separable weighted sum of the input pixels within the filter's support,
// which widens with the scale when downsampling (so every input pixel
// counts). As PyTorch computes it: scale = (in - 1) / (out - 1) with
// alignCorners, 1 / scales when a scale is given, else in / out; the centre
// of output i is scale * (i + 0.5) (alignCorners too); the support is
// (filter size / 2) * max(scale, 1); weights are filter((j - centre + 0.5) /
// max(scale, 1)), normalised to sum 1: the triangle for bilinear, Keys' cubic
// with a = -0.5 for bicubic. The taps are planned once and run on the
// separable resampling kernel the other upsampling ops share (separable.h).
#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_upsample_bicubic2d_aa.h"
#include "aclnnop/aclnn_upsample_bilinear2d_aa.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "separable.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAaDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr double kMaxScale = 50;  // CANN's A2 limit on the reduction factor

enum class AaFilter : uint8_t { kTriangle, kCubic };

double FilterWeight(AaFilter filter, double x) {
  x = std::abs(x);
  if (filter == AaFilter::kTriangle) return x < 1 ? 1 - x : 0;
  constexpr double a = -0.5;
  if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

double AreaScale(int64_t in, int64_t out, bool align_corners, double scale) {
  if (align_corners) return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0;
  return scale > 0 ? 1 / scale : static_cast<double>(in) / static_cast<double>(out);
}

// The normalised filter taps of every output index along one axis.
kernels::AxisTaps AntialiasTaps(AaFilter filter, int64_t in, int64_t out, bool align_corners, double given_scale) {
  // An axis whose size does not change is copied, whatever scale is given (CANN's tilings and PyTorch's
  // separable kernel take its scale as 1: the filter is then 1 at each sample and 0 at the others).
  const double scale = in == out ? 1.0 : AreaScale(in, out, align_corners, given_scale);
  const double widen = std::max(scale, 1.0);
  const double support = (filter == AaFilter::kTriangle ? 1.0 : 2.0) * widen;
  kernels::AxisTaps taps;
  for (int64_t i = 0; i < out; ++i) {
    const double centre = scale * (static_cast<double>(i) + 0.5);
    // PyTorch truncates these toward zero (not a rounding of the centre).
    const double first = centre - support + 0.5, last = centre + support + 0.5;
    const auto lo = std::max<int64_t>(static_cast<int64_t>(first), 0);
    const int64_t hi = std::min<int64_t>(static_cast<int64_t>(last), in);
    double total = 0;
    for (int64_t j = lo; j < hi; ++j) total += FilterWeight(filter, (static_cast<double>(j) - centre + 0.5) / widen);
    for (int64_t j = lo; j < hi; ++j) {
      taps.Add(j, total != 0 ? FilterWeight(filter, (static_cast<double>(j) - centre + 0.5) / widen) / total : 0);
    }
    taps.EndOutput();
  }
  return taps;
}

aclnnStatus PlanAntialias(Plan& plan, AaFilter filter, const aclTensor* input, const aclIntArray* outputSize,
                          bool alignCorners, double scalesH, double scalesW, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kAaDtypes));
  if (out->dtype != input->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must be input's (%s)", DtypeName(out->dtype),
                       DtypeName(input->dtype));
  }
  if (out->format != input->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has format %d; input has %d", static_cast<int>(out->format),
                       static_cast<int>(input->format));
  }
  CANOPY_CHECK(plan.CheckRank("input", input, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  if (outputSize->values.size() != 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'outputSize' holds %zu values; it must hold 2",
                       outputSize->values.size());
  }
  if (input->format != ACL_FORMAT_ND && input->format != ACL_FORMAT_NCHW) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'input' has format %d; it must be NCHW or ND",
                       static_cast<int>(input->format));
  }
  if (scalesH < 0 || scalesW < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalesH (%g) and scalesW (%g) must not be negative", scalesH, scalesW);
  }
  const Shape& s = input->view_shape;
  const int64_t oh = outputSize->values[0], ow = outputSize->values[1];
  if (s[0] <= 0 || s[1] <= 0 || s[2] <= 0 || s[3] <= 0 || oh <= 0 || ow <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input %s and outputSize [%lld, %lld] must not be empty",
                       ShapeToString(s).c_str(), static_cast<long long>(oh), static_cast<long long>(ow));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {s[0], s[1], oh, ow}));
  // CANN's A2 limit when no scale is given: the bilinear host code divides the sizes as integers, the
  // bicubic one in FLOAT (101 / 2 is 50 there and 50.5 here).
  const auto ratio = [filter](int64_t in, int64_t out) {
    if (filter == AaFilter::kTriangle) {
      const int64_t whole = in / out;  // truncated on purpose, as the bilinear host code
      return static_cast<double>(whole);
    }
    return static_cast<double>(static_cast<float>(in) / static_cast<float>(out));
  };
  const double reduce_h = scalesH > 0 ? 1 / scalesH : ratio(s[2], oh);
  const double reduce_w = scalesW > 0 ? 1 / scalesW : ratio(s[3], ow);
  if (reduce_h > kMaxScale || reduce_w > kMaxScale) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the reduction factors (%g, %g) must not exceed 50", reduce_h,
                       reduce_w);
  }
  const TensorRef src = plan.Input(input, "input");
  const TensorRef dst = plan.Output(out, "out");
  PlanSeparable(plan, src, dst, AntialiasTaps(filter, s[2], oh, alignCorners, scalesH),
                AntialiasTaps(filter, s[3], ow, alignCorners, scalesW), kernels::SeparableReduce::kWeightedSum,
                "antialiased resample");
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBilinearAa(Plan& plan, const aclTensor* input, const aclIntArray* outputSize, bool alignCorners,
                           double scalesH, double scalesW, const aclTensor* out) {
  return PlanAntialias(plan, AaFilter::kTriangle, input, outputSize, alignCorners, scalesH, scalesW, out);
}

aclnnStatus PlanBicubicAa(Plan& plan, const aclTensor* input, const aclIntArray* outputSize, bool alignCorners,
                          double scalesH, double scalesW, const aclTensor* out) {
  return PlanAntialias(plan, AaFilter::kCubic, input, outputSize, alignCorners, scalesH, scalesW, out);
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleBilinear2dAA, PlanBilinearAa,
                (OpTraits{.header = "aclnnop/aclnn_upsample_bilinear2d_aa.h",
                          .dtypes = kAaDtypes,
                          .example = "f32[1,2,8,6] ints[3,4] false 0.0 0.0 f32[1,2,3,4]"}),
                (const aclTensor*, input), (const aclIntArray*, outputSize), (bool, alignCorners), (double, scalesH),
                (double, scalesW), (aclTensor*, out))
CANOPY_ACLNN_OP(UpsampleBicubic2dAA, PlanBicubicAa,
                (OpTraits{.header = "aclnnop/aclnn_upsample_bicubic2d_aa.h",
                          .dtypes = kAaDtypes,
                          .example = "f32[1,2,8,6] ints[3,4] false 0.0 0.0 f32[1,2,3,4]"}),
                (const aclTensor*, input), (const aclIntArray*, outputSize), (bool, alignCorners), (double, scalesH),
                (double, scalesW), (aclTensor*, out))
