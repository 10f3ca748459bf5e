// aclnnUpsampleLinear1d: linear resampling of the L axis of [N, C, L] (ND or
// NCL), as torch.nn.functional.interpolate(mode="linear"), on the separable
// resampling kernel with one row.
#include <cmath>
#include <utility>

#include "aclnnop/aclnn_upsample_linear_1d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "separable.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLinearDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr OpTraits kLinearTraits{
    .header = "aclnnop/aclnn_upsample_linear_1d.h", .dtypes = kLinearDtypes, .max_rank = 3};

aclnnStatus PlanUpsampleLinear1d(Plan& plan, const aclTensor* self, const aclIntArray* output_size, bool align_corners,
                                 double scales, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 3));
  CANOPY_CHECK(plan.CheckRank("out", out, 3, 3));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {1}, 1));
  const Shape& in_shape = self->view_shape;
  if (in_shape[1] == 0 || in_shape[2] == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty in C or L; only N may be empty",
                       ShapeToString(in_shape).c_str());
  }
  const int64_t out_length = output_size->values[0];
  CANOPY_CHECK(plan.CheckShape("out", out, {in_shape[0], in_shape[1], out_length}));
  // A scale given (CANN takes any value >= 0 as given; the doc's example passes
  // -1 for none) must give out's length: floor(L * scales).
  if (scales >= 0 && std::trunc(static_cast<double>(in_shape[2]) * scales) != static_cast<double>(out_length)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "scales %g conflicts with outputSize %lld: floor(%lld * scales) must equal it (a negative "
                       "scales means none)",
                       scales, static_cast<long long>(out_length), static_cast<long long>(in_shape[2]));
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kLinearDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  for (const aclTensor* t : {self, out}) {
    if (t->format != ACL_FORMAT_ND && t->format != ACL_FORMAT_NCL) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has format %s; ND or NCL is supported",
                         t == self ? "self" : "out", FormatName(t->format));
    }
  }

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch
  x = Unsqueeze(x, 2);                             // [N, C, 1, L]: one row
  y = Unsqueeze(y, 2);
  kernels::AxisTaps row;
  row.Add(0, 1.0);
  row.EndOutput();
  PlanSeparable(plan, x, y, std::move(row), LinearTaps(false, x.shape[3], y.shape[3], align_corners, scales),
                kernels::SeparableReduce::kWeightedSum, "linear resample");
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleLinear1d, PlanUpsampleLinear1d,
                WithExample(kLinearTraits, "f32[1,1,2] ints[3] false -1 f32[1,1,3]"), (const aclTensor*, self),
                (const aclIntArray*, outputSize), (bool, alignCorners), (double, scales), (aclTensor*, out))
