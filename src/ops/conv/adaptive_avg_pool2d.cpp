// aclnnAdaptiveAvgPool2d: average pooling of [N, C, H, W] (NCHW) or [C, H, W]
// (NCL) to a given output size, each output the mean of its window
// [floor(i * in / out), ceil((i + 1) * in / out)) on both axes, as
// torch.nn.functional.adaptive_avg_pool2d. oneDNN's pooling takes one window
// size per axis, which adaptive windows are not, so this is the separable
// resampling kernel with each window's taps weighted 1 / its length.
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "separable.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAdaptiveAvgPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr OpTraits kAdaptiveAvgPoolTraits{
    .header = "aclnnop/aclnn_adaptive_avg_pool2d.h", .dtypes = kAdaptiveAvgPoolDtypes, .max_rank = 4};

aclnnStatus PlanAdaptiveAvgPool2d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                  const aclTensor* out) {
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, self->rank(), self->rank()));
  const int64_t rank = self->rank();
  // Every dim but the first holds something (the doc); the batch may be empty.
  for (const aclTensor* t : {self, out}) {
    for (int64_t d = 1; d < rank; ++d) {
      if (t->view_shape[d] <= 0) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s %s has an empty dim %lld; only the first may be empty",
                           t == self ? "self" : "out", ShapeToString(t->view_shape).c_str(), static_cast<long long>(d));
      }
    }
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kAdaptiveAvgPoolDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  const aclFormat format = rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCL;
  CANOPY_CHECK(CheckFormat(plan, "self", self, format));
  CANOPY_CHECK(CheckFormat(plan, "out", out, format));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {2}, 1));
  Shape expected(self->view_shape.begin(), self->view_shape.end() - 2);
  expected.push_back(output_size->values[0]);
  expected.push_back(output_size->values[1]);
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (rank == 3) {  // [C, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
  }
  PlanSeparable(plan, x, y, AdaptiveWindows(x.shape[2], y.shape[2], true),
                AdaptiveWindows(x.shape[3], y.shape[3], true), kernels::SeparableReduce::kWeightedSum,
                "adaptive average pool");
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AdaptiveAvgPool2d, PlanAdaptiveAvgPool2d,
                WithExample(kAdaptiveAvgPoolTraits, "f32[2,2,3,3]@NCHW ints[2,2] f32[2,2,2,2]@NCHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (aclTensor*, out))
