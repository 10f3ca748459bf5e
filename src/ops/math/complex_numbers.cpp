// The complex-number ops: Real and AngleV2 take complex (or real) tensors
// apart, Complex and Polar build them. A complex tensor is read and written
// as its real and imaginary parts: a view of its buffer in the parts' real
// dtype with a trailing dimension of 2 (COMPLEX32's parts are FLOAT16, so it
// needs no kernel of its own), and every op is then copies, the binary
// functor table's atan2, or the unary table's sin and cos into those views.
#include "aclnnop/aclnn_angle_v2.h"
#include "aclnnop/aclnn_complex.h"
#include "aclnnop/aclnn_polar.h"
#include "aclnnop/aclnn_real.h"
#include "binary_pointwise.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// Complex `t` as [..., 2] of its parts' dtype: [..., 0] the real parts, [..., 1] the imaginary ones.
TensorRef PartsOf(const TensorRef& t) {
  TensorRef parts = t;
  parts.dtype = PartDtype(t.dtype);
  for (int64_t& stride : parts.strides) stride *= 2;
  parts.shape.push_back(2);
  parts.strides.push_back(1);
  return parts;
}

TensorRef RealPart(const TensorRef& t) { return Select(PartsOf(t), t.rank(), 0); }
TensorRef ImagPart(const TensorRef& t) { return Select(PartsOf(t), t.rank(), 1); }

bool IsComplex(aclDataType dtype) {
  return dtype == ACL_COMPLEX32 || dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128;
}

// ---- Real -------------------------------------------------------------------------------------

// CANN's Atlas A2 code: self's dtypes, and the out dtype each one takes.
constexpr DtypeSet kRealDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_COMPLEX32, ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus PlanReal(Plan& plan, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kRealDtypes));
  if (out->dtype != PartDtype(self->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self of dtype %s gives an out of dtype %s, not %s",
                       DtypeName(self->dtype), DtypeName(PartDtype(self->dtype)), DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  plan.Copy(IsComplex(src.dtype) ? RealPart(src) : src, dst);
  return ACLNN_SUCCESS;
}

// ---- Complex ----------------------------------------------------------------------------------

constexpr DtypeSet kPartDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE};
constexpr DtypeSet kComplexDtypes = {ACL_COMPLEX32, ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus PlanComplex(Plan& plan, const aclTensor* real, const aclTensor* imag, const aclTensor* out) {
  // As CANN: an empty operand succeeds before anything is checked, writing nothing.
  const bool empty = real->NumElements() == 0 || imag->NumElements() == 0;
  if (!empty) {
    CANOPY_CHECK(plan.CheckDtype("real", real->dtype, kPartDtypes));
    CANOPY_CHECK(plan.CheckDtype("imag", imag->dtype, kPartDtypes));
    CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kComplexDtypes));
    CANOPY_CHECK(CheckSameDtype(plan, "imag", imag, "real", real));
    if (PartDtype(out->dtype) != real->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out of dtype %s has parts of dtype %s, not real's %s",
                         DtypeName(out->dtype), DtypeName(PartDtype(out->dtype)), DtypeName(real->dtype));
    }
    Shape shape;
    CANOPY_CHECK(plan.CheckBroadcast("real", real->view_shape, "imag", imag->view_shape, shape));
    CANOPY_CHECK(plan.CheckShape("out", out, shape));
  }
  const TensorRef re = plan.Input(real, "real");
  const TensorRef im = plan.Input(imag, "imag");
  const TensorRef dst = plan.Output(out, "out");
  if (empty || dst.NumElements() == 0) return ACLNN_SUCCESS;
  plan.Copy(re, RealPart(dst));
  plan.Copy(im, ImagPart(dst));
  return ACLNN_SUCCESS;
}

// ---- Polar ------------------------------------------------------------------------------------

aclnnStatus PlanPolar(Plan& plan, const aclTensor* input, const aclTensor* angle, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_COMPLEX64}));
  CANOPY_CHECK(plan.CheckDtype("angle", angle->dtype, {ACL_FLOAT}));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("input", input->view_shape, "angle", angle->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const TensorRef magnitude = plan.Input(input, "input");
  const TensorRef phase = plan.Input(angle, "angle");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef cos = plan.Temporary(ACL_FLOAT, phase.shape);
  const TensorRef sin = plan.Temporary(ACL_FLOAT, phase.shape);
  plan.Unary(UnaryOp::kCos, ComputeType::kF32, phase, cos);
  plan.Unary(UnaryOp::kSin, ComputeType::kF32, phase, sin);
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {magnitude, cos}, RealPart(dst), ScalarValue::Integer(1));
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {magnitude, sin}, ImagPart(dst), ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

// ---- AngleV2 ----------------------------------------------------------------------------------

// CANN's Atlas A2 definition: x's dtypes; FLOAT16 and BFLOAT16 keep their dtype, every other gives FLOAT.
constexpr DtypeSet kAngleDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16,  ACL_COMPLEX64, ACL_BOOL,
                                   ACL_UINT8,   ACL_INT8,  ACL_INT16, ACL_INT32,     ACL_INT64};

aclnnStatus PlanAngleV2(Plan& plan, const aclTensor* x, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kAngleDtypes));
  const aclDataType result = x->dtype == ACL_FLOAT16 || x->dtype == ACL_BF16 ? x->dtype : ACL_FLOAT;
  if (out->dtype != result) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x of dtype %s gives an out of dtype %s, not %s", DtypeName(x->dtype),
                       DtypeName(result), DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, x->view_shape));
  const TensorRef src = plan.Input(x, "x");
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  if (src.dtype == ACL_COMPLEX64) {
    AddPointwise(plan, PointwiseOp::kAtan2, ACL_FLOAT, ACL_FLOAT,
                 {PointwiseOperand::Tensor(ImagPart(src)), PointwiseOperand::Tensor(RealPart(src))}, dst);
    return ACLNN_SUCCESS;
  }
  // A real x: pi below zero, else 0 (NaN stays NaN). Adding +0 first turns -0 into +0, whose angle is 0 as
  // PyTorch's (atan2(0, -0) would be pi).
  const TensorRef value = plan.Temporary(ACL_FLOAT, src.shape);
  plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {src}, value, ScalarValue::Integer(1),
                   ScalarValue::Real(0.0));
  AddPointwise(plan, PointwiseOp::kAtan2, ACL_FLOAT, ACL_FLOAT,
               {PointwiseOperand::Scalar(ScalarValue::Real(0.0)), PointwiseOperand::Tensor(value)}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Real, PlanReal,
                (OpTraits{.header = "aclnnop/aclnn_real.h", .dtypes = kRealDtypes, .example = "c64[2,3] f32[2,3]"}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(Complex, PlanComplex,
                (OpTraits{.header = "aclnnop/aclnn_complex.h",
                          .dtypes = kPartDtypes | kComplexDtypes,
                          .example = "f32[2,3] f32[2,3] c64[2,3]"}),
                (const aclTensor*, real), (const aclTensor*, imag), (aclTensor*, out))
CANOPY_ACLNN_OP(Polar, PlanPolar,
                (OpTraits{.header = "aclnnop/aclnn_polar.h",
                          .dtypes = {ACL_FLOAT, ACL_COMPLEX64},
                          .example = "f32[2,3] f32[2,3] c64[2,3]"}),
                (const aclTensor*, input), (const aclTensor*, angle), (aclTensor*, out))
CANOPY_ACLNN_OP(AngleV2, PlanAngleV2,
                (OpTraits{
                    .header = "aclnnop/aclnn_angle_v2.h", .dtypes = kAngleDtypes, .example = "c64[2,3] f32[2,3]"}),
                (const aclTensor*, x), (const aclTensor*, out))
