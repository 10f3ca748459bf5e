// aclnnIsClose: |self - other| <= atol + rtol * |other|, or equal
// (torch.isclose; NaN is close to NaN only with equalNan). self and other have
// one dtype and broadcast; rtol and atol are narrowed to float as CANN does.
// Floats compare in their own dtype, integers and BOOL exactly. The result is
// BOOL, cast to out (CANN does not check out's dtype).
#include <bit>

#include "aclnnop/aclnn_isclose.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIsCloseDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                     ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,    ACL_BF16};

aclnnStatus PlanIsClose(Plan& plan, const aclTensor* self, const aclTensor* other, double rtol, double atol,
                        bool equalNan, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kIsCloseDtypes));
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kIsCloseDtypes));
  if (self->dtype != other->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'other' has dtype %s; it must have self's dtype %s",
                       DtypeName(other->dtype), DtypeName(self->dtype));
  }
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "other", other->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(other, "other");
  // Floats compare in their own dtype; integers exactly in INT64, the
  // tolerances then carried as a double's bits (kernels' IsCloseFn).
  const bool integral = !IsFloating(self->dtype);
  const aclDataType compute = integral ? ACL_INT64 : self->dtype;
  const auto narrowed = [integral](double v) {
    const double tolerance = static_cast<float>(v);
    return integral ? ScalarValue::Integer(std::bit_cast<int64_t>(tolerance)) : ScalarValue::Real(tolerance);
  };
  AddPointwise(plan, equalNan ? PointwiseOp::kIsCloseEqualNan : PointwiseOp::kIsClose, compute, ACL_BOOL,
               {PointwiseOperand::Tensor(a), PointwiseOperand::Tensor(b), PointwiseOperand::Scalar(narrowed(rtol)),
                PointwiseOperand::Scalar(narrowed(atol))},
               plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(IsClose, PlanIsClose,
                (OpTraits{.header = "aclnnop/aclnn_isclose.h",
                          .dtypes = kIsCloseDtypes,
                          .example = "f32[2,3] f32[2,3] 1e-5 1e-8 false bool[2,3]"}),
                (const aclTensor*, self), (const aclTensor*, other), (double, rtol), (double, atol), (bool, equalNan),
                (aclTensor*, out))
