// aclnnUpsampleTrilinear3d: trilinear upsampling of D, H and W of an
// [N, C, D, H, W] (NCDHW, or ND read as it) or [N, D, H, W, C] (NDHWC)
// tensor with PyTorch's source coordinates (align_corners or not, given
// scales) on each axis: linear taps (separable.h) in two passes of the
// separable kernel, since oneDNN's linear resampling has neither
// align_corners nor given scales.
#include "aclnnop/aclnn_upsample_trilinear_3d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "separable.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTrilinearDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
constexpr OpTraits kTrilinearTraits{
    .header = "aclnnop/aclnn_upsample_trilinear_3d.h", .dtypes = kTrilinearDtypes, .max_rank = 5};
constexpr double kMaxScale = 50;                  // the doc's bound on scalesD/H/W
constexpr int64_t kMaxExtent = int64_t{1} << 20;  // the doc's bound on every dim

aclnnStatus PlanUpsampleTrilinear3d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                    bool align_corners, double scales_d, double scales_h, double scales_w,
                                    const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kTrilinearDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  if (self->format != ACL_FORMAT_NCDHW && self->format != ACL_FORMAT_NDHWC && self->format != ACL_FORMAT_ND) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format %s; it must be NCDHW, NDHWC or ND",
                       FormatName(self->format));
  }
  CANOPY_CHECK(CheckFormat(plan, "out", out, self->format));
  CANOPY_CHECK(plan.CheckRank("self", self, 5, 5));
  CANOPY_CHECK(plan.CheckRank("out", out, 5, 5));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {3}, 1));
  if (self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty; empty tensors are not supported",
                       ShapeToString(self->view_shape).c_str());
  }
  const double scales[3] = {scales_d, scales_h, scales_w};
  const char* scale_names[3] = {"scalesD", "scalesH", "scalesW"};
  for (int k = 0; k < 3; ++k) {
    if (scales[k] > kMaxScale) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s is %g; it must be at most 50", scale_names[k], scales[k]);
    }
  }
  const bool channels_last = self->format == ACL_FORMAT_NDHWC;
  const int first = channels_last ? 1 : 2;  // the D dim
  Shape expected = self->view_shape;
  for (int k = 0; k < 3; ++k) expected[first + k] = output_size->values[static_cast<size_t>(k)];
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  for (const aclTensor* t : {self, out}) {
    for (int64_t extent : t->view_shape) {
      if (extent > kMaxExtent) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has an extent of %lld; at most 2^20 is supported",
                           t == self ? "self" : "out", static_cast<long long>(extent));
      }
    }
  }

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (channels_last) {  // [N, D, H, W, C] viewed as [N, C, D, H, W]
    x = Permute(x, {0, 4, 1, 2, 3});
    y = Permute(y, {0, 4, 1, 2, 3});
  }
  const bool f64 = x.dtype == ACL_DOUBLE;
  PlanSeparable3d(plan, x, y, LinearTaps(f64, x.shape[2], y.shape[2], align_corners, scales_d),
                  LinearTaps(f64, x.shape[3], y.shape[3], align_corners, scales_h),
                  LinearTaps(f64, x.shape[4], y.shape[4], align_corners, scales_w),
                  kernels::SeparableReduce::kWeightedSum, "trilinear upsample");
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleTrilinear3d, PlanUpsampleTrilinear3d,
                WithExample(kTrilinearTraits, "f32[1,1,2,2,2]@NCDHW ints[4,4,4] false 0 0 0 f32[1,1,4,4,4]@NCDHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (bool, alignCorners), (double, scalesD),
                (double, scalesH), (double, scalesW), (aclTensor*, out))
