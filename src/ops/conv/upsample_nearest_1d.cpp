// aclnnUpsampleNearest1d and aclnnUpsampleNearest1dV2: nearest-neighbour
// upsampling of the last dim of an [N, C, L] (NCL) tensor to outputSize with
// PyTorch's index rule src = min(floor(dst * scale), L - 1), scale L / out
// (V2: 1 / scaleL when scaleL > 0) in float: the gather of nearest.h.
#include "aclnnop/aclnn_upsample_nearest_1d.h"
#include "aclnnop/aclnn_upsample_nearest_1d_v2.h"
#include "nearest.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kUpsampleDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_UINT8};
constexpr OpTraits kUpsampleTraits{
    .header = "aclnnop/aclnn_upsample_nearest_1d.h", .dtypes = kUpsampleDtypes, .max_rank = 3};
constexpr OpTraits kUpsampleV2Traits{
    .header = "aclnnop/aclnn_upsample_nearest_1d_v2.h", .dtypes = kUpsampleDtypes, .max_rank = 3};
constexpr int64_t kMaxWideLength = int64_t{1} << 24;  // the doc's bound on L for DOUBLE and UINT8

// `max_wide_length`: the doc's bound on L for DOUBLE and UINT8 (exclusive).
aclnnStatus PlanNearest1d(Plan& plan, const aclTensor* self, const aclIntArray* output_size, double scales,
                          int64_t max_wide_length, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kUpsampleDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 3));
  CANOPY_CHECK(plan.CheckRank("out", out, 3, 3));
  CANOPY_CHECK(CheckFormat(plan, "self", self, ACL_FORMAT_NCL));
  CANOPY_CHECK(CheckFormat(plan, "out", out, ACL_FORMAT_NCL));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {1}, 1));
  if (self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty; UpsampleNearest1d takes no empty tensor",
                       ShapeToString(self->view_shape).c_str());
  }
  if ((self->dtype == ACL_DOUBLE || self->dtype == ACL_UINT8) && self->view_shape[2] >= max_wide_length) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's L is %lld; for %s it must be below %lld",
                       static_cast<long long>(self->view_shape[2]), DtypeName(self->dtype),
                       static_cast<long long>(max_wide_length));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {self->view_shape[0], self->view_shape[1], output_size->values[0]}));

  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Output(out, "out");
  PlanNearestResize(plan, x, y, {{}, {}, NearestSourceIndices(x.shape[2], y.shape[2], NearestRule::kFloor, scales)});
  return ACLNN_SUCCESS;
}

aclnnStatus PlanUpsampleNearest1d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                  const aclTensor* out) {
  return PlanNearest1d(plan, self, output_size, 0.0, kMaxWideLength, out);
}

aclnnStatus PlanUpsampleNearest1dV2(Plan& plan, const aclTensor* self, const aclIntArray* output_size, float scale_l,
                                    const aclTensor* out) {
  return PlanNearest1d(plan, self, output_size, scale_l, kMaxWideLength + 1, out);  // V2: L up to 2^24
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleNearest1d, PlanUpsampleNearest1d,
                WithExample(kUpsampleTraits, "f32[1,3,3]@NCL ints[5] f32[1,3,5]@NCL"), (const aclTensor*, self),
                (const aclIntArray*, outputSize), (aclTensor*, out))

CANOPY_ACLNN_OP(UpsampleNearest1dV2, PlanUpsampleNearest1dV2,
                WithExample(kUpsampleV2Traits, "f32[1,3,3]@NCL ints[6] 0 f32[1,3,6]@NCL"), (const aclTensor*, self),
                (const aclIntArray*, outputSize), (float, scaleL), (aclTensor*, out))
