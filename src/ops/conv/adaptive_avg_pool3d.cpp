// aclnnAdaptiveAvgPool3d: average pooling of [N, C, D, H, W] or [C, D, H, W]
// (NCDHW or ND) to a given output size, each output the mean of its window
// [floor(i * in / out), ceil((i + 1) * in / out)) on every axis, as
// torch.nn.functional.adaptive_avg_pool3d: the separable resampling kernel
// in two passes (separable.h), as AdaptiveAvgPool2d.
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "separable.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAdaptiveAvgPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr OpTraits kAdaptiveAvgPool3dTraits{
    .header = "aclnnop/aclnn_adaptive_avg_pool3d.h", .dtypes = kAdaptiveAvgPoolDtypes, .max_rank = 5};

aclnnStatus PlanAdaptiveAvgPool3d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                  const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kAdaptiveAvgPoolDtypes));
  for (const aclTensor* t : {self, out}) {
    if (t->format != ACL_FORMAT_NCDHW && t->format != ACL_FORMAT_ND) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has format %s; it must be NCDHW or ND",
                         t == self ? "self" : "out", FormatName(t->format));
    }
  }
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 5));
  CANOPY_CHECK(plan.CheckRank("out", out, self->rank(), self->rank()));
  CANOPY_CHECK(CheckNonEmptyFrom(plan, "self", self, 1));
  CANOPY_CHECK(CheckNonEmptyFrom(plan, "out", out, 1));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {3}, 1));
  Shape expected(self->view_shape.begin(), self->view_shape.end() - 3);
  for (int64_t v : output_size->values) expected.push_back(v);
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (x.rank() == 4) {  // [C, D, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
  }
  PlanSeparable3d(plan, x, y, AdaptiveWindows(x.shape[2], y.shape[2], true),
                  AdaptiveWindows(x.shape[3], y.shape[3], true), AdaptiveWindows(x.shape[4], y.shape[4], true),
                  kernels::SeparableReduce::kWeightedSum, "adaptive average pool 3-D");
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AdaptiveAvgPool3d, PlanAdaptiveAvgPool3d,
                WithExample(kAdaptiveAvgPool3dTraits, "f32[2,1,2,2,4] ints[2,2,2] f32[2,1,2,2,2]"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (aclTensor*, out))
