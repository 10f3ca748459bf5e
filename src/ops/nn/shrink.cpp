// aclnnShrink (ONNX Shrink): self - bias above lambd, self + bias below
// -lambd, else 0. lambd and bias are taken as floats (CANN checks neither
// dtype) and lambd may not be negative. self and out are FLOAT or FLOAT16
// each, independently: the result, computed in self's dtype, is cast to out.
#include "aclnnop/aclnn_shrink.h"

#include "ops/math/binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kShrinkDtypes = {ACL_FLOAT, ACL_FLOAT16};

aclnnStatus PlanShrink(Plan& plan, const aclTensor* self, const aclScalar* lambd, const aclScalar* bias,
                       const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kShrinkDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kShrinkDtypes));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const auto as_float = [](const aclScalar& s) {
    const ScalarValue v = ValueOf(s);
    return static_cast<float>(v.As<double>());
  };
  const float lambda = as_float(*lambd);
  if (lambda < 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'lambd' is %g; it may not be negative", lambda);
  const TensorRef x = plan.Input(self, "self");
  AddPointwise(
      plan, PointwiseOp::kShrink, self->dtype, self->dtype,
      {PointwiseOperand::Tensor(x), PointwiseOperand::Scalar(RoundedTo(ScalarValue::Real(lambda), self->dtype)),
       PointwiseOperand::Scalar(RoundedTo(ScalarValue::Real(as_float(*bias)), self->dtype))},
      plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Shrink, PlanShrink,
                (OpTraits{.header = "aclnnop/aclnn_shrink.h",
                          .dtypes = kShrinkDtypes,
                          .example = "f32[2,3] f32:0.5 f32:0.25 f32[2,3]"}),
                (const aclTensor*, self), (const aclScalar*, lambd), (const aclScalar*, bias), (aclTensor*, out))
