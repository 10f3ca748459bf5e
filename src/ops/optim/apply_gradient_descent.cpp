// aclnnApplyGradientDescent (CANN's experimental/optim/apply_gradient_descent, Atlas A2; TensorFlow's
// ApplyGradientDescent): var = var - alpha * delta in place, in FLOAT (one Addcmul step of value -1,
// alpha read when the step runs). CANN's order: var's dtype in the list, alpha's and delta's var's, then
// delta of var's shape and alpha of one element (all 161002). An empty var computes nothing.
#include "aclnnop/aclnn_apply_gradient_descent.h"
#include "adam_update.h"
#include "ops/framework/tensor_view.h"
#include "ops/math/binary_pointwise.h"
#include "ops/shape/shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanApplyGradientDescent(Plan& plan, const aclTensor* var, const aclTensor* alpha, const aclTensor* delta) {
  CANOPY_CHECK(plan.CheckDtype("var", var->dtype, kAdamDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "alpha", alpha, "var", var));
  CANOPY_CHECK(CheckSameDtype(plan, "delta", delta, "var", var));
  CANOPY_CHECK(plan.CheckShape("delta", delta, var->view_shape));
  CANOPY_CHECK(CheckOneElement(plan, "alpha", alpha));
  const TensorRef v = plan.Input(var, "var");
  const TensorRef a = BroadcastTo(SqueezeAll(plan.Input(alpha, "alpha")), var->view_shape);
  const TensorRef d = plan.Input(delta, "delta");
  const TensorRef out = plan.Output(var, "var");
  if (var->NumElements() == 0) return ACLNN_SUCCESS;
  AddPointwise(plan, PointwiseOp::kAddcmul, var->dtype, var->dtype,
               {PointwiseOperand::Tensor(v), PointwiseOperand::Tensor(a), PointwiseOperand::Tensor(d),
                PointwiseOperand::Scalar(ScalarValue::Real(-1))},
               out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ApplyGradientDescent, PlanApplyGradientDescent,
                (OpTraits{.header = "aclnnop/aclnn_apply_gradient_descent.h",
                          .dtypes = kAdamDtypes,
                          // Not marked in_place: the registry's in-place ops name the tensor they write
                          // selfRef / varRef, and CANN's prototype calls it var.
                          .example = "f32[2,3] f32[1] f32[2,3]"}),
                (aclTensor*, var), (const aclTensor*, alpha), (const aclTensor*, delta))
