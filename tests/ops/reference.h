// Float64 references for the first aclnn ops, and the dtype rules (promotion,
// castability) of the fact sheet they are checked against.
#ifndef CANOPY_TESTS_OPS_REFERENCE_H_
#define CANOPY_TESTS_OPS_REFERENCE_H_

#include <optional>

#include "op_test_support.h"

namespace canopy_test {

// TensorTensor promotion ("互推导关系" table); nullopt where it is ×.
std::optional<aclDataType> Promote(aclDataType a, aclDataType b);
// The impl's CanCast (PyTorch can_cast): no complex -> real, no float ->
// integer, nothing but bool -> bool.
bool CanCast(aclDataType from, aclDataType to);

// NumPy broadcast of two shapes; nullopt when they do not broadcast.
std::optional<Shape> BroadcastShapes(const Shape& a, const Shape& b);
// Row-major values of shape `from` expanded to shape `to`.
Values BroadcastTo(const Values& values, const Shape& from, const Shape& to);

enum class BinaryOp { kAdd, kSub, kMul, kDiv };
const char* BinaryOpName(BinaryOp op);

// out = op(self, other) with `alpha` scaling `other` (Add/Sub). Inputs are
// converted to `compute`, the result is rounded to `compute` and then to
// `out`. Tolerances: exact when neither `compute` nor `out` is a float type;
// otherwise a few units of roundoff of both, relative to the magnitude of the
// terms (so cancellation does not make them meaningless).
Expected ReferenceBinary(BinaryOp op, const Values& self, const Shape& selfShape, const Values& other,
                         const Shape& otherShape, Value alpha, aclDataType compute, aclDataType out);

// Cast semantics (see ConvertValue) with one unit of roundoff of slack for
// float targets (double rounding through an intermediate float type).
Expected ReferenceCast(const Values& src, aclDataType to);

struct MatmulPrecision {
  aclDataType out;             // dtype of the result tensor
  aclDataType resultRounding;  // dtype the kernel may round the result to before `out`
  double inputRoundoff = 0;    // roundoff applied to inputs by the math mode (HF32/FP16), 0 if none
};

// cubeMathType values of the matmul family.
constexpr int8_t kKeepDtype = 0, kAllowFp32DownPrecision = 1, kUseFp16 = 2, kUseHf32 = 3, kUseFp32Add = 4;

// The real parts of `values`.
std::vector<double> RealParts(const Values& values);

// x rounded to HF32, the NPU cube's reduced f32 (cubeMathType 1 and 3): f32's
// range, 11 significant bits (nearest even).
double ToHf32(double x);

// The largest |c - exact| / magnitude over the outputs (magnitude: the sum of
// the products' absolute values, what a dot product's error scales with).
double WorstScaledError(const std::vector<double>& c, const std::vector<double>& exact,
                        const std::vector<double>& magnitude);

// What the math mode does to the precision of a product of `a` and `b`
// (fact sheet, "cubeMathType" on A2).
MatmulPrecision MatmulPrecisionFor(aclDataType a, aclDataType b, aclDataType out, int8_t cubeMathType);

// torch.matmul semantics (1-D operands, batch broadcast) in float64.
// Returns nullopt if the shapes do not multiply; `outShape` receives the
// result shape. Tolerance grows with K (f32 accumulation).
std::optional<Expected> ReferenceMatmul(const Values& a, const Shape& aShape, const Values& b, const Shape& bShape,
                                        const MatmulPrecision& precision, Shape* outShape);

// out = beta * self (broadcast to [M, N]) + alpha * (mat1 @ mat2).
Expected ReferenceAddmm(const Values& self, const Shape& selfShape, const Values& mat1, const Shape& mat1Shape,
                        const Values& mat2, const Shape& mat2Shape, Value beta, Value alpha,
                        const MatmulPrecision& precision);

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_REFERENCE_H_
