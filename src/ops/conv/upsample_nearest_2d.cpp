// aclnnUpsampleNearest2d: nearest-neighbour upsampling of H and W of an NCHW
// or NHWC tensor to outputSize, with PyTorch's index rule
// src = min(floor(dst * (in / out)), in - 1), the scale computed in float.
// Canopy's own gather (nearest.h): oneDNN's nearest resampling
// rounds to the nearest source centre instead, which picks other rows when
// the ratio is not an integer.
#include <utility>
#include <vector>

#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "nearest.h"
#include "ops/framework/aclnn_op.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kUpsampleDtypes = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_DOUBLE, ACL_UINT8};
constexpr OpTraits kUpsampleTraits{
    .header = "aclnnop/aclnn_upsample_nearest_2d.h", .dtypes = kUpsampleDtypes, .max_rank = 4};
constexpr int64_t kMaxExtent = int64_t{1} << 20;  // the doc's bound on every dim

aclnnStatus PlanUpsampleNearest2d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                  const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kUpsampleDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  if (self->format != ACL_FORMAT_NCHW && self->format != ACL_FORMAT_NHWC) {
    CANOPY_CHECK(CheckFormat(plan, "self", self, ACL_FORMAT_NCHW));
  }
  CANOPY_CHECK(CheckFormat(plan, "out", out, self->format));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {2}, 1));
  if (self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty; UpsampleNearest2d takes no empty tensor",
                       ShapeToString(self->view_shape).c_str());
  }
  const bool channels_last = self->format == ACL_FORMAT_NHWC;
  const int row_dim = channels_last ? 1 : 2, column_dim = channels_last ? 2 : 3;
  Shape expected = self->view_shape;
  expected[row_dim] = output_size->values[0];
  expected[column_dim] = output_size->values[1];
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  for (const aclTensor* t : {self, out}) {
    for (int64_t extent : t->view_shape) {
      if (extent > kMaxExtent) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has an extent of %lld; at most 2^20 is supported",
                           t == self ? "self" : "out", static_cast<long long>(extent));
      }
    }
  }

  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Output(out, "out");
  std::vector<std::vector<int64_t>> sources(4);
  sources[row_dim] = NearestSourceIndices(x.shape[row_dim], y.shape[row_dim], NearestRule::kFloor);
  sources[column_dim] = NearestSourceIndices(x.shape[column_dim], y.shape[column_dim], NearestRule::kFloor);
  PlanNearestResize(plan, x, y, std::move(sources));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleNearest2d, PlanUpsampleNearest2d,
                WithExample(kUpsampleTraits, "f32[1,2,2,2]@NCHW ints[4,4] f32[1,2,4,4]@NCHW"), (const aclTensor*, self),
                (const aclIntArray*, outputSize), (aclTensor*, out))
