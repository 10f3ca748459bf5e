// aclnnUpsampleNearestExact1d and aclnnUpsampleNearestExact2d: PyTorch's
// nearest-exact upsampling, src = min(floor((dst + 0.5) * scale), in - 1)
// with scale 1 / scales when a scale is given (> 0), else in / out, in
// float: the gather of UpsampleNearest2d (nearest.h). oneDNN's nearest
// resampling rounds differently, so it is not used.
#include <utility>
#include <vector>

#include "aclnnop/aclnn_upsample_nearest_exact1d.h"
#include "aclnnop/aclnn_upsample_nearest_exact2d.h"
#include "nearest.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kExactDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_UINT8};  // the A2 column (the 950 drops UINT8)
constexpr OpTraits kExact1dTraits{
    .header = "aclnnop/aclnn_upsample_nearest_exact1d.h", .dtypes = kExactDtypes, .max_rank = 3};
constexpr OpTraits kExact2dTraits{
    .header = "aclnnop/aclnn_upsample_nearest_exact2d.h", .dtypes = kExactDtypes, .max_rank = 4};

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kExactDtypes));
  if (out->dtype == self->dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                     DtypeName(self->dtype));
}

aclnnStatus PlanUpsampleNearestExact1d(Plan& plan, const aclTensor* self, const aclIntArray* output_size, double scales,
                                       const aclTensor* out) {
  CANOPY_CHECK(CheckDtypes(plan, self, out));
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 3));
  CANOPY_CHECK(plan.CheckRank("out", out, 3, 3));
  if (self->format != ACL_FORMAT_NCL && self->format != ACL_FORMAT_ND) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format %s; it must be NCL or ND", FormatName(self->format));
  }
  CANOPY_CHECK(CheckFormat(plan, "out", out, self->format));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {1}, 1));
  if (self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty; UpsampleNearestExact1d takes no empty tensor",
                       ShapeToString(self->view_shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {self->view_shape[0], self->view_shape[1], output_size->values[0]}));

  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Output(out, "out");
  PlanNearestResize(plan, x, y, {{}, {}, NearestSourceIndices(x.shape[2], y.shape[2], NearestRule::kExact, scales)});
  return ACLNN_SUCCESS;
}

aclnnStatus PlanUpsampleNearestExact2d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                       double scales_h, double scales_w, const aclTensor* out) {
  CANOPY_CHECK(CheckDtypes(plan, self, out));
  if (self->format != ACL_FORMAT_NCHW && self->format != ACL_FORMAT_NHWC && self->format != ACL_FORMAT_ND) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format %s; it must be NCHW, NHWC or ND",
                       FormatName(self->format));
  }
  CANOPY_CHECK(CheckFormat(plan, "out", out, self->format));
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {2}, 0));
  if (scales_h < 0 || scales_w < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalesH (%g) and scalesW (%g) must not be negative", scales_h,
                       scales_w);
  }
  const bool channels_last = self->format == ACL_FORMAT_NHWC;  // ND is read as NCHW
  const int row_dim = channels_last ? 1 : 2, column_dim = channels_last ? 2 : 3;
  Shape expected = self->view_shape;
  expected[row_dim] = output_size->values[0];
  expected[column_dim] = output_size->values[1];
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Output(out, "out");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // empty tensors are allowed: nothing to read
  std::vector<std::vector<int64_t>> sources(4);
  sources[row_dim] = NearestSourceIndices(x.shape[row_dim], y.shape[row_dim], NearestRule::kExact, scales_h);
  sources[column_dim] = NearestSourceIndices(x.shape[column_dim], y.shape[column_dim], NearestRule::kExact, scales_w);
  PlanNearestResize(plan, x, y, std::move(sources));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleNearestExact1d, PlanUpsampleNearestExact1d,
                WithExample(kExact1dTraits, "f32[1,3,3]@NCL ints[5] 0 f32[1,3,5]@NCL"), (const aclTensor*, self),
                (const aclIntArray*, outputSize), (double, scales), (aclTensor*, out))

CANOPY_ACLNN_OP(UpsampleNearestExact2d, PlanUpsampleNearestExact2d,
                WithExample(kExact2dTraits, "f32[1,1,4,2]@NCHW ints[8,4] 0 0 f32[1,1,8,4]@NCHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (double, scalesH), (double, scalesW),
                (aclTensor*, out))
