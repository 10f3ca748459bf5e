// aclnnUpsampleBilinear2d: bilinear resampling of the H and W axes of a 4-D
// NCHW or NHWC tensor, as torch.nn.functional.interpolate(mode="bilinear")
// with align_corners and optional scales. oneDNN's linear resampling knows
// only the half-pixel rule without a given scale, so the taps are computed
// here with PyTorch's rule and run on the separable resampling kernel.
#include <cmath>

#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "separable.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kBilinearDtypes = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_DOUBLE};
constexpr OpTraits kBilinearTraits{
    .header = "aclnnop/aclnn_upsample_bilinear_2d.h", .dtypes = kBilinearDtypes, .max_rank = 4};

aclnnStatus PlanUpsampleBilinear2d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                   bool align_corners, double scales_h, double scales_w, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kBilinearDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  if (self->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's format (%s) and out's (%s) differ", FormatName(self->format),
                       FormatName(out->format));
  }
  if (self->format != ACL_FORMAT_NCHW && self->format != ACL_FORMAT_NHWC) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format %s; NCHW or NHWC is supported",
                       FormatName(self->format));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  if (self->dtype == ACL_DOUBLE && self->format == ACL_FORMAT_NCHW) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a DOUBLE self must be NHWC, not NCHW");
  }
  const bool channels_last = self->format == ACL_FORMAT_NHWC;
  const int64_t channel_dim = channels_last ? 3 : 1, row_dim = channels_last ? 1 : 2, column_dim = row_dim + 1;
  for (const int64_t d : {int64_t{0}, channel_dim}) {
    if (self->view_shape[d] != out->view_shape[d]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out %s must keep self's (%s) N and C",
                         ShapeToString(out->view_shape).c_str(), ShapeToString(self->view_shape).c_str());
    }
  }
  if (scales_h < 0 || scales_w < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalesH (%g) and scalesW (%g) may not be negative", scales_h,
                       scales_w);
  }
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {2}, 1));
  if (out->view_shape[row_dim] != output_size->values[0] || out->view_shape[column_dim] != output_size->values[1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out %s does not have outputSize (%lld, %lld) as H and W",
                       ShapeToString(out->view_shape).c_str(), static_cast<long long>(output_size->values[0]),
                       static_cast<long long>(output_size->values[1]));
  }

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (x.NumElements() == 0 || y.NumElements() == 0) return ACLNN_SUCCESS;  // CANN's code: nothing to do
  if (channels_last) {                                                     // the kernel's [N, C, H, W] order, as views
    x = Permute(x, {0, 3, 1, 2});
    y = Permute(y, {0, 3, 1, 2});
  }
  const bool f64 = x.dtype == ACL_DOUBLE;
  PlanSeparable(plan, x, y, LinearTaps(f64, x.shape[2], y.shape[2], align_corners, scales_h),
                LinearTaps(f64, x.shape[3], y.shape[3], align_corners, scales_w),
                kernels::SeparableReduce::kWeightedSum, "bilinear resample");
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleBilinear2d, PlanUpsampleBilinear2d,
                WithExample(kBilinearTraits, "f32[1,1,4,2]@NCHW ints[8,4] true 2.0 2.0 f32[1,1,8,4]@NCHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (bool, alignCorners), (double, scalesH),
                (double, scalesW), (aclTensor*, out))
