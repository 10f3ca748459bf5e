// aclnnUpsampleNearest3d and aclnnUpsampleNearestExact3d: nearest and
// nearest-exact upsampling of D, H and W of an [N, C, D, H, W] (NCDHW, or ND
// read as it) or [N, D, H, W, C] (NDHWC) tensor, PyTorch's index rules
// (nearest.h); the three scales are used only when all are > 0 (the docs),
// else in / out on every axis.
#include <utility>
#include <vector>

#include "aclnnop/aclnn_upsample_nearest_3d.h"
#include "aclnnop/aclnn_upsample_nearest_exact3d.h"
#include "nearest.h"
#include "ops/framework/aclnn_op.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNearestDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
constexpr DtypeSet kExactDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr OpTraits kNearest3dTraits{
    .header = "aclnnop/aclnn_upsample_nearest_3d.h", .dtypes = kNearestDtypes, .max_rank = 5};
constexpr OpTraits kExact3dTraits{
    .header = "aclnnop/aclnn_upsample_nearest_exact3d.h", .dtypes = kExactDtypes, .max_rank = 5};

aclnnStatus PlanNearest3d(Plan& plan, NearestRule rule, DtypeSet dtypes, const aclTensor* self,
                          const aclIntArray* output_size, double scales_d, double scales_h, double scales_w,
                          const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, dtypes));
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
  const bool channels_last = self->format == ACL_FORMAT_NDHWC;
  const int first = channels_last ? 1 : 2;  // the D dim
  Shape expected = self->view_shape;
  for (int k = 0; k < 3; ++k) expected[first + k] = output_size->values[static_cast<size_t>(k)];
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Output(out, "out");
  const bool use_scales = scales_d > 0 && scales_h > 0 && scales_w > 0;
  const double scales[3] = {scales_d, scales_h, scales_w};
  std::vector<std::vector<int64_t>> sources(5);
  for (int k = 0; k < 3; ++k) {
    const size_t d = static_cast<size_t>(first) + static_cast<size_t>(k);
    sources[d] = NearestSourceIndices(x.shape[d], y.shape[d], rule, use_scales ? scales[k] : 0.0);
  }
  PlanNearestResize(plan, x, y, std::move(sources));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanUpsampleNearest3d(Plan& plan, const aclTensor* self, const aclIntArray* output_size, double scales_d,
                                  double scales_h, double scales_w, const aclTensor* out) {
  return PlanNearest3d(plan, NearestRule::kFloor, kNearestDtypes, self, output_size, scales_d, scales_h, scales_w, out);
}

aclnnStatus PlanUpsampleNearestExact3d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                       double scales_d, double scales_h, double scales_w, const aclTensor* out) {
  return PlanNearest3d(plan, NearestRule::kExact, kExactDtypes, self, output_size, scales_d, scales_h, scales_w, out);
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleNearest3d, PlanUpsampleNearest3d,
                WithExample(kNearest3dTraits, "f32[2,2,2,2,3]@NCDHW ints[1,1,1] 0 0 0 f32[2,2,1,1,1]@NCDHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (double, scalesD), (double, scalesH),
                (double, scalesW), (aclTensor*, out))

CANOPY_ACLNN_OP(UpsampleNearestExact3d, PlanUpsampleNearestExact3d,
                WithExample(kExact3dTraits, "f32[2,2,2,2,3]@NCDHW ints[1,1,1] 0 0 0 f32[2,2,1,1,1]@NCDHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (double, scalesD), (double, scalesH),
                (double, scalesW), (aclTensor*, out))
