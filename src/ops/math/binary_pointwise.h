// The recipes shared by the pointwise ops of two or more operands (Eq, Gt,
// the Clamp family, Pow, MaskedFill, Addcdiv): an op is a BinaryRule (its
// dtype lists from its CANN document, its result policy) plus a row of the
// functor table (kernels/binary_pointwise.h). Checks run in CANN's order:
// dtypes, promotion, result castable to out, shapes.
#pragma once

#include <optional>
#include <vector>

#include "kernels/binary_pointwise.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

using kernels::PointwiseOp;

// ---- the step ---------------------------------------------------------------------------------

// An operand of a pointwise step: a tensor view (broadcast to out's shape by
// the step) or a scalar value.
struct PointwiseOperand {
  std::optional<TensorRef> tensor;
  ScalarValue scalar;

  static PointwiseOperand Tensor(const TensorRef& t) { return {t, {}}; }
  static PointwiseOperand Scalar(ScalarValue v) { return {std::nullopt, v}; }
};

// An integer operand of 16-bit float math, rounded to that dtype first (a
// temporary): CANN casts every operand to the promoted dtype, where the
// kernels read each from its own storage (INT32 2049 against FLOAT16 2048
// compared unequal; FLOAT16 holds 2049 as 2048). Any other operand as it is.
TensorRef RoundedOperand(Plan& plan, const TensorRef& operand, aclDataType compute_dtype);

// out = f(operands...) computed in the compute type of `compute_dtype` (the
// operands' promoted dtype, integer operands of 16-bit float math rounded to
// it), giving a `result` (a comparison's BOOL, else compute_dtype). A 16-bit
// float result headed for an out of another dtype is rounded to its dtype
// first, as CANN computes in it and then casts.
void AddPointwise(Plan& plan, PointwiseOp op, aclDataType compute_dtype, aclDataType result,
                  const std::vector<PointwiseOperand>& operands, const TensorRef& out);

// ---- dtype rules ------------------------------------------------------------------------------

// The dtypes of Eq / Ne (Tensor and Scalar forms) on Atlas A2: every operand
// and out, no UINT16 / UINT32 / UINT64 anywhere.
inline constexpr DtypeSet kEqualityDtypes = {ACL_DOUBLE, ACL_FLOAT16, ACL_FLOAT,     ACL_BF16,
                                             ACL_INT64,  ACL_INT32,   ACL_INT8,      ACL_UINT8,
                                             ACL_BOOL,   ACL_INT16,   ACL_COMPLEX64, ACL_COMPLEX128};

// CANN's TensorScalar deduction: the tensor's dtype wins unless the scalar
// brings complex or floating point into integer or bool math (then the
// scalar's category at its default width: FLOAT, COMPLEX64). UNDEFINED: none.
aclDataType TensorScalarDtype(aclDataType tensor, aclDataType scalar);
// FLOAT16 or BF16: results round to 8 or 11 bits before any cast to a wider out.
inline bool IsHalfWidth(aclDataType dtype) { return dtype == ACL_FLOAT16 || dtype == ACL_BF16; }
// A result CANN's kernel writes in `dtype` before any cast to another out dtype
// rounds or wraps there: 16-bit floats and integers narrower than int64 (an
// INT8 shift into an INT64 out wraps at 8 bits; int8 127 + 1 into INT16 is -128).
inline bool RoundsInOwnDtype(aclDataType dtype) {
  return IsHalfWidth(dtype) || (IsIntegral(dtype) && DtypeSize(dtype) < 8);
}
// `value` as a tensor of `dtype` holds it, as CANN turns a scalar operand into
// a tensor of the compute dtype: a comparison of FLOAT16 data with 0.1 compares
// with FLOAT16(0.1), 300 in INT8 math is 44, 2.5 in INT32 math is 2; complex
// dtypes keep it exact.
ScalarValue RoundedTo(ScalarValue value, aclDataType dtype);
// A scalar argument's dtype is one of `allowed` (161002 naming it otherwise).
aclnnStatus CheckScalarDtype(Plan& plan, const char* name, const aclScalar* scalar, DtypeSet allowed);
// The tensor-scalar deduction as a check (161002 when there is none).
aclnnStatus CheckTensorScalarDtype(Plan& plan, const char* tensor_name, aclDataType tensor, const char* scalar_name,
                                   aclDataType scalar, aclDataType& result);
// In-place: the operands broadcast to selfRef's own shape.
aclnnStatus CheckBroadcastInto(Plan& plan, const char* self_name, const Shape& self, const char* other_name,
                               const Shape& other);

// ---- self (op) other ----------------------------------------------------------------------------

enum class ResultPolicy : uint8_t {
  kPromoted,     // the promotion of self and other (Pow, ClampMin): it must cast to out
  kBool,         // a comparison: out takes any dtype a BOOL casts to
  kFloat,        // a bool or integer promotion computes in FLOAT (Atan2)
  kBoolAsFloat,  // a BOOL promotion computes in FLOAT, integers stay (FloorDivide)
  kAtMostFloat,  // kFloat, and a DOUBLE promotion computes in FLOAT too (XLogYScalarOther)
};

// How a scalar `other` promotes with the tensor `self` (CANN's ops differ).
enum class ScalarPromotion : uint8_t {
  kTensorScalar,    // CANN's TensorScalar deduction (TensorScalarDtype)
  kTensorTensor,    // as a tensor of the scalar's dtype would (FloorDivides, BitwiseAndScalar)
  kInt32Narrowed,   // kTensorTensor, with an INT64 scalar whose value fits INT32 taken as INT32 (BitwiseOrScalar)
  kFloatKeepsWidth  // kTensorScalar, but a floating scalar brings its own width into integer math (Remainder)
};

struct BinaryRule {
  PointwiseOp op = PointwiseOp::kEq;
  DtypeSet self = {};           // the out-of-place form's self
  DtypeSet other = {};          // other (tensor or scalar)
  DtypeSet out = {};            // out
  DtypeSet inplace = {};        // the in-place form's selfRef
  DtypeSet inplace_other = {};  // the in-place form's other
  ResultPolicy policy = ResultPolicy::kPromoted;
  // The prototype's names (messages and checker reports).
  const char* self_name = "self";
  const char* inplace_name = "selfRef";
  const char* other_name = "other";
  // The in-place form rejects selfRef and other when exactly one is empty (EqTensor).
  bool inplace_rejects_one_empty = false;
  // The promoted dtype must be one of these (empty: any) (Remainder computes in six dtypes only).
  DtypeSet compute = {};
  ScalarPromotion scalar_promotion = ScalarPromotion::kTensorScalar;
  // false: the result is cast into out without CANN's castability check (Atan2 and FloorDivide do not make it).
  bool out_cast_checked = true;
};

// The dtype `rule` computes in for operands promoted to `promoted` (its ResultPolicy; a comparison computes in
// `promoted` and gives BOOL).
aclDataType ComputeDtypeOf(const BinaryRule& rule, aclDataType promoted);
// The promotion of tensor `self` with scalar `other` under `rule` (UNDEFINED: none).
aclDataType ScalarPromotionOf(const BinaryRule& rule, aclDataType self, const aclScalar& other);

// out = f(self, other), other a tensor broadcast with self; in place: out is self.
aclnnStatus PlanBinaryTensorOp(Plan& plan, const BinaryRule& rule, const aclTensor* self, const aclTensor* other,
                               const aclTensor* out, bool in_place);
// out = f(self, other), other a scalar; in place: out is self.
aclnnStatus PlanBinaryScalarOp(Plan& plan, const BinaryRule& rule, const aclTensor* self, const aclScalar* other,
                               const aclTensor* out, bool in_place);

}  // namespace canopy::ops
