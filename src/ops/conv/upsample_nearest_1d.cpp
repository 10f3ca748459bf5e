// aclnnUpsampleNearest1d: nearest-neighbour upsampling of the last dim of an
// [N, C, L] (NCL) tensor to outputSize with PyTorch's index rule
// src = min(floor(dst * (L / out)), L - 1), the scale in float: the gather
// of UpsampleNearest2d (nearest.h) on one dim.
#include "aclnnop/aclnn_upsample_nearest_1d.h"
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
constexpr int64_t kMaxWideLength = int64_t{1} << 24;  // the doc's bound on L for DOUBLE and UINT8

aclnnStatus PlanUpsampleNearest1d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                  const aclTensor* out) {
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
  if ((self->dtype == ACL_DOUBLE || self->dtype == ACL_UINT8) && self->view_shape[2] >= kMaxWideLength) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's L is %lld; for %s it must be below 2^24",
                       static_cast<long long>(self->view_shape[2]), DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {self->view_shape[0], self->view_shape[1], output_size->values[0]}));

  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Output(out, "out");
  PlanNearestResize(plan, x, y, {{}, {}, NearestSourceIndices(x.shape[2], y.shape[2], NearestRule::kFloor)});
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleNearest1d, PlanUpsampleNearest1d,
                WithExample(kUpsampleTraits, "f32[1,3,3]@NCL ints[5] f32[1,3,5]@NCL"), (const aclTensor*, self),
                (const aclIntArray*, outputSize), (aclTensor*, out))
