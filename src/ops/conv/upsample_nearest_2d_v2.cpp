// aclnnUpsampleNearest2dV2: UpsampleNearest2d with given scales: source
// index min(floor(dst * scale), in - 1), scale 1 / scales when both are > 0
// (GivenScales: CANN's A2 exceptions for unchanged and doubled axes), else
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
constexpr int64_t kSmallDoubledSum = 128;             // out H + W up to which a doubled axis takes 2

// The scales factor an axis resamples by on CANN's A2 path: the given one
// only when both are positive (else every axis follows the sizes, 0 here),
// 1 for an axis whose size is unchanged, and 2 for one that doubles while
// out's H + W is at most 128 (its computeScale, as PyTorch's nearest_idx).
double GivenScales(int64_t in, int64_t out, int64_t other_out, double scales, bool both) {
  if (!both) return 0;
  if (in == out) return 1;
  if (out % 2 == 0 && out / 2 == in && out + other_out <= kSmallDoubledSum) return 2;
  return scales;
}

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
  const int64_t in_h = x.shape[row_dim], in_w = x.shape[column_dim];
  const int64_t out_h = y.shape[row_dim], out_w = y.shape[column_dim];
  const bool both = scales_h > 0 && scales_w > 0;
  std::vector<std::vector<int64_t>> sources(4);
  sources[row_dim] =
      NearestSourceIndices(in_h, out_h, NearestRule::kFloor, GivenScales(in_h, out_h, out_w, scales_h, both));
  sources[column_dim] =
      NearestSourceIndices(in_w, out_w, NearestRule::kFloor, GivenScales(in_w, out_w, out_h, scales_w, both));
  PlanNearestResize(plan, x, y, std::move(sources));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleNearest2dV2, PlanUpsampleNearest2dV2,
                WithExample(kUpsampleTraits, "f32[1,1,4,2]@NCHW ints[8,4] 0 0 f32[1,1,8,4]@NCHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (float, scalesH), (float, scalesW),
                (aclTensor*, out))
