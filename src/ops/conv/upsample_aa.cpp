// aclnnUpsampleBilinear2dAA and aclnnUpsampleBicubic2dAA (torch's
// interpolate with antialias=True): each output pixel is a normalised,
// separable weighted sum of the input pixels within the filter's support,
// which widens with the scale when downsampling (so every input pixel
// counts). As PyTorch computes it: scale = (in - 1) / (out - 1) with
// alignCorners, 1 / scales when a scale is given, else in / out; the centre
// of output i is scale * (i + 0.5) (alignCorners too); the support is
// (filter size / 2) * max(scale, 1); weights are filter((j - centre + 0.5) /
// max(scale, 1)), normalised to sum 1: the triangle for bilinear, Keys' cubic
// with a = -0.5 for bicubic. Weights are planned once; the run is two passes
// over each plane in FLOAT.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_upsample_bicubic2d_aa.h"
#include "aclnnop/aclnn_upsample_bilinear2d_aa.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

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

// Per output index: the first input index and the normalised weights from there.
struct Taps {
  std::vector<int64_t> first;
  std::vector<std::vector<float>> weights;
};

double AreaScale(int64_t in, int64_t out, bool align_corners, double scale) {
  if (align_corners) return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0;
  return scale > 0 ? 1 / scale : static_cast<double>(in) / static_cast<double>(out);
}

Taps PlanTaps(AaFilter filter, int64_t in, int64_t out, bool align_corners, double given_scale) {
  const double scale = AreaScale(in, out, align_corners, given_scale);
  const double half = filter == AaFilter::kTriangle ? 1.0 : 2.0;
  const double widen = std::max(scale, 1.0);
  const double support = half * widen;
  Taps taps;
  for (int64_t i = 0; i < out; ++i) {
    const double centre = scale * (static_cast<double>(i) + 0.5);
    // PyTorch truncates these toward zero (not a rounding of the centre).
    const double first = centre - support + 0.5, last = centre + support + 0.5;
    const auto lo = std::max<int64_t>(static_cast<int64_t>(first), 0);
    const int64_t hi = std::min<int64_t>(static_cast<int64_t>(last), in);
    std::vector<double> w;
    double total = 0;
    for (int64_t j = lo; j < hi; ++j) {
      w.push_back(FilterWeight(filter, (static_cast<double>(j) - centre + 0.5) / widen));
      total += w.back();
    }
    std::vector<float> normalised;
    for (double v : w) normalised.push_back(static_cast<float>(total != 0 ? v / total : 0));
    taps.first.push_back(lo);
    taps.weights.push_back(std::move(normalised));
  }
  return taps;
}

// planes [P, H, W] -> [P, OH, OW], dense FLOAT: rows first, then columns.
class AntialiasStep final : public Step {
 public:
  AntialiasStep(const TensorRef& in, const TensorRef& rows, const TensorRef& out, Taps vertical, Taps horizontal)
      : in_(in), rows_(rows), out_(out), vertical_(std::move(vertical)), horizontal_(std::move(horizontal)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* in = reinterpret_cast<const float*>(context.Resolve(in_.buffer));
    auto* rows = reinterpret_cast<float*>(context.Resolve(rows_.buffer));
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    const int64_t planes = in_.shape[0], h = in_.shape[1], w = in_.shape[2];
    const int64_t oh = out_.shape[1], ow = out_.shape[2];
    for (int64_t p = 0; p < planes; ++p) {
      const float* src = in + p * h * w;
      float* mid = rows + p * h * ow;
      for (int64_t y = 0; y < h; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          const std::vector<float>& wt = horizontal_.weights[static_cast<size_t>(x)];
          const float* tap = src + y * w + horizontal_.first[static_cast<size_t>(x)];
          float sum = 0;
          for (size_t k = 0; k < wt.size(); ++k) sum += wt[k] * tap[k];
          mid[y * ow + x] = sum;
        }
      }
      float* dst = out + p * oh * ow;
      for (int64_t y = 0; y < oh; ++y) {
        const std::vector<float>& wt = vertical_.weights[static_cast<size_t>(y)];
        const float* tap = mid + vertical_.first[static_cast<size_t>(y)] * ow;
        for (int64_t x = 0; x < ow; ++x) {
          float sum = 0;
          for (size_t k = 0; k < wt.size(); ++k) sum += wt[k] * tap[static_cast<int64_t>(k) * ow + x];
          dst[y * ow + x] = sum;
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "antialiased resample " + ShapeToString(in_.shape) + " -> " + ShapeToString(out_.shape);
  }

 private:
  TensorRef in_, rows_, out_;
  Taps vertical_, horizontal_;
};

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
  // CANN's A2 limit, with its integer division when no scale is given.
  const int64_t ratio_h = s[2] / oh, ratio_w = s[3] / ow;
  const double reduce_h = scalesH > 0 ? 1 / scalesH : static_cast<double>(ratio_h);
  const double reduce_w = scalesW > 0 ? 1 / scalesW : static_cast<double>(ratio_w);
  if (reduce_h > kMaxScale || reduce_w > kMaxScale) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the reduction factors (%g, %g) must not exceed 50", reduce_h,
                       reduce_w);
  }
  const TensorRef src = plan.Input(input, "input");
  const TensorRef dst = plan.Output(out, "out");
  const int64_t planes = s[0] * s[1];
  const TensorRef in = *Reshape(plan.Contiguous(src, ACL_FLOAT), {planes, s[2], s[3]});
  const TensorRef rows = plan.Temporary(ACL_FLOAT, {planes, s[2], ow});
  const TensorRef result = plan.Temporary(ACL_FLOAT, {planes, oh, ow});
  plan.AddStep(std::make_unique<AntialiasStep>(in, rows, result, PlanTaps(filter, s[2], oh, alignCorners, scalesH),
                                               PlanTaps(filter, s[3], ow, alignCorners, scalesW)),
               {in}, result);
  plan.Copy(*Reshape(result, dst.shape), dst);
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
