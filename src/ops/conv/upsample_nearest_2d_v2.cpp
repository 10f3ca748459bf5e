// aclnnUpsampleNearest2dV2: UpsampleNearest2d with given scales: source
// index min(floor(dst * scale), in - 1), scale 1 / scales when > 0, else
// in / out, in float (PyTorch's rule); the gather of nearest.h.
#include <utility>
#include <vector>

#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"
#include "nearest.h"
#include "ops/framework/aclnn_op.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kUpsampleDtypes = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_DOUBLE, ACL_UINT8};
constexpr OpTraits kUpsampleTraits{
    .header = "aclnnop/aclnn_upsample_nearest_2d_v2.h", .dtypes = kUpsampleDtypes, .max_rank = 4};
constexpr int64_t kMaxWideExtent = int64_t{1} << 24;  // the doc's bound on H and W for DOUBLE and UINT8

aclnnStatus PlanUpsampleNearest2dV2(Plan& plan, const aclTensor* self, const aclIntArray* output_size, float scales_h,
                                    float scales_w, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kUpsampleDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  if (self->format != ACL_FORMAT_NCHW && self->format != ACL_FORMAT_NHWC) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format %s; it must be NCHW or NHWC",
                       FormatName(self->format));
  }
  CANOPY_CHECK(CheckFormat(plan, "out", out, self->format));
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {2}, 1));
  const bool channels_last = self->format == ACL_FORMAT_NHWC;
  const int row_dim = channels_last ? 1 : 2, column_dim = channels_last ? 2 : 3;
  if ((self->dtype == ACL_DOUBLE || self->dtype == ACL_UINT8) &&
      (self->view_shape[row_dim] >= kMaxWideExtent || self->view_shape[column_dim] >= kMaxWideExtent)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s: for %s, H and W must be below 2^24",
                       ShapeToString(self->view_shape).c_str(), DtypeName(self->dtype));
  }
  Shape expected = self->view_shape;
  expected[row_dim] = output_size->values[0];
  expected[column_dim] = output_size->values[1];
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Output(out, "out");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // empty tensors are allowed: nothing to read
  std::vector<std::vector<int64_t>> sources(4);
  sources[row_dim] = NearestSourceIndices(x.shape[row_dim], y.shape[row_dim], NearestRule::kFloor, scales_h);
  sources[column_dim] = NearestSourceIndices(x.shape[column_dim], y.shape[column_dim], NearestRule::kFloor, scales_w);
  PlanNearestResize(plan, x, y, std::move(sources));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleNearest2dV2, PlanUpsampleNearest2dV2,
                WithExample(kUpsampleTraits, "f32[1,1,4,2]@NCHW ints[8,4] 0 0 f32[1,1,8,4]@NCHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (float, scalesH), (float, scalesW),
                (aclTensor*, out))
