#include "binary_arithmetic.h"

#include "binary_pointwise.h"
#include "ops/framework/plan.h"

namespace canopy::ops {
namespace {

bool IsDivision(ElementwiseOp kind) {
  return kind == ElementwiseOp::kDiv || kind == ElementwiseOp::kDivTrunc || kind == ElementwiseOp::kDivFloor;
}

// Division rounded to an integer (DivMod trunc / floor), which integers compute exactly.
bool IsRoundingDivision(ElementwiseOp kind) {
  return kind == ElementwiseOp::kDivTrunc || kind == ElementwiseOp::kDivFloor;
}

// The dtype the arithmetic runs in. True division of integers or bools runs in
// f64; trunc and floor division of integers are exact integer division (f64
// would round operands beyond 2^53).
ComputeType ComputeFor(ElementwiseOp kind, aclDataType dtype) {
  if (IsRoundingDivision(kind) && IsIntegral(dtype)) return ComputeType::kI64;
  if (IsDivision(kind) && !IsFloating(dtype) && !IsComplex(dtype)) return ComputeType::kF64;
  return kernels::ComputeTypeOf(dtype);
}

// Alpha must be representable in the compute dtype (CANN: bool math takes only integral alpha).
aclnnStatus CheckAlpha(Plan& plan, const aclScalar* alpha, aclDataType promoted) {
  if (promoted == ACL_BOOL) {
    if (IsIntegral(alpha->dtype) || IsBool(alpha->dtype)) return ACLNN_SUCCESS;
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "alpha of dtype %s cannot scale a BOOL result",
                       DtypeName(alpha->dtype));
  }
  if (CanCast(alpha->dtype, promoted)) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "alpha of dtype %s cannot be cast to the result dtype %s",
                     DtypeName(alpha->dtype), DtypeName(promoted));
}

aclnnStatus CheckScalarDtype(Plan& plan, const char* name, const aclScalar* scalar) {
  if (CategoryOf(scalar->dtype) != DtypeCategory::kInvalid) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalar '%s' has unsupported dtype %s", name, DtypeName(scalar->dtype));
}

// CANN's dtype for tensor (op) scalar: the tensor's dtype wins unless the scalar
// brings complex or floating point into integer or bool math.
aclnnStatus ScalarComputeDtype(Plan& plan, ElementwiseOp kind, aclDataType self, aclDataType scalar,
                               aclDataType& dtype) {
  if (IsRoundingDivision(kind) && IsIntegral(self) && (IsIntegral(scalar) || IsBool(scalar))) {
    dtype = self;  // an integer tensor divided and rounded by an integer stays exact
    return ACLNN_SUCCESS;
  }
  if (IsDivision(kind)) {
    dtype = IsFloating(self) || IsComplex(self) ? self : ACL_FLOAT;
    if (IsComplex(scalar)) return plan.CheckPromotable("self", dtype, "other", scalar, dtype);
    return ACLNN_SUCCESS;
  }
  if (IsComplex(self) || IsComplex(scalar)) return plan.CheckPromotable("self", self, "other", scalar, dtype);
  if (IsFloating(self)) {
    dtype = self;
    return ACLNN_SUCCESS;
  }
  if (IsFloating(scalar)) {
    dtype = ACL_FLOAT;  // integer or bool tensor with a floating scalar computes in float
    return ACLNN_SUCCESS;
  }
  if (IsBool(self)) return plan.CheckPromotable("self", self, "other", scalar, dtype);
  dtype = self;
  return ACLNN_SUCCESS;
}

ScalarValue AlphaOf(BinaryArithmetic op, const aclScalar* alpha) {
  return op.has_alpha ? ValueOf(*alpha) : ScalarValue::Integer(1);
}

// Whether CANN's kernel writes a result of `dtype` that the cast to another out
// dtype then widens, so that it rounds or wraps there first: bool arithmetic
// (true + true is true) and what RoundsInOwnDtype names. Integers divided truly
// or with truncation compute in floating point and are cast from there.
bool ResultRoundsInComputeDtype(ElementwiseOp kind, aclDataType dtype) {
  if (IsDivision(kind) && !IsFloating(dtype) && !IsComplex(dtype)) {
    return kind == ElementwiseOp::kDivFloor && RoundsInOwnDtype(dtype);
  }
  return dtype == ACL_BOOL || RoundsInOwnDtype(dtype);
}

// Runs the arithmetic into `out`, staged in the compute dtype where CANN's
// result rounds or wraps there before its cast to out.
void AddArithmetic(Plan& plan, BinaryArithmetic op, aclDataType compute_dtype, const std::vector<TensorRef>& given,
                   const TensorRef& out, ScalarValue alpha, ScalarValue scalar = {}) {
  const ComputeType compute = ComputeFor(op.kind, compute_dtype);
  std::vector<TensorRef> inputs;
  for (const TensorRef& input : given) inputs.push_back(RoundedOperand(plan, input, compute_dtype));
  if (out.dtype != compute_dtype && ResultRoundsInComputeDtype(op.kind, compute_dtype)) {
    const TensorRef result = plan.Temporary(compute_dtype, out.shape);
    plan.Elementwise(op.kind, compute, inputs, result, alpha, scalar);
    plan.Copy(result, out);
    return;
  }
  plan.Elementwise(op.kind, compute, inputs, out, alpha, scalar);
}

// What every form checks first: self and out have supported dtypes (the kit has
// checked that the arguments are there).
aclnnStatus CheckSupported(Plan& plan, const aclTensor* self, const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "selfRef" : "out";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kArithmeticDtypes));
  if (!in_place) CANOPY_CHECK(plan.CheckDtype(out_name, out->dtype, kArithmeticDtypes));
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus PlanBinaryTensor(Plan& plan, BinaryArithmetic op, const aclTensor* self, const aclTensor* other,
                             const aclScalar* alpha, const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "selfRef" : "out";
  CANOPY_CHECK(CheckSupported(plan, self, out, in_place));
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kArithmeticDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable(self_name, self->dtype, "other", other->dtype, promoted));
  CANOPY_CHECK(plan.CheckCastable(promoted, out_name, out->dtype));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, "other", other->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape(out_name, out, shape));
  if (op.has_alpha) {
    CANOPY_CHECK(CheckScalarDtype(plan, "alpha", alpha));
    CANOPY_CHECK(CheckAlpha(plan, alpha, promoted));
  }

  const TensorRef a = plan.Input(self, self_name);
  const TensorRef b = plan.Input(other, "other");
  const TensorRef result = plan.Output(out, out_name);
  AddArithmetic(plan, op, promoted, {a, b}, result, AlphaOf(op, alpha));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBinaryScalar(Plan& plan, BinaryArithmetic op, const aclTensor* self, const aclScalar* other,
                             const aclScalar* alpha, const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "selfRef" : "out";
  CANOPY_CHECK(CheckSupported(plan, self, out, in_place));
  CANOPY_CHECK(CheckScalarDtype(plan, "other", other));
  aclDataType compute;
  CANOPY_CHECK(ScalarComputeDtype(plan, op.kind, self->dtype, other->dtype, compute));
  // CANN's A2 Muls / InplaceMuls check only that self and out are in the list:
  // the result is cast to any such out (FLOAT into INT32 truncates, as Cast does).
  if (IsDivision(op.kind)) {
    CANOPY_CHECK(plan.CheckCastable(self->dtype, out_name, out->dtype));
  } else if (op.kind != ElementwiseOp::kMul) {
    CANOPY_CHECK(plan.CheckCastable(compute, out_name, out->dtype));
  }
  CANOPY_CHECK(plan.CheckShape(out_name, out, self->view_shape));
  if (op.has_alpha) {
    CANOPY_CHECK(CheckScalarDtype(plan, "alpha", alpha));
    CANOPY_CHECK(CheckAlpha(plan, alpha, compute));
  }

  const TensorRef a = plan.Input(self, self_name);
  const TensorRef result = plan.Output(out, out_name);
  AddArithmetic(plan, op, compute, {a}, result, AlphaOf(op, alpha), ValueOf(*other));
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
