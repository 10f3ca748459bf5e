// The pointwise engine for ops of two or more operands: out = f(x0, x1, ...),
// each operand a strided / broadcast tensor view of any storage dtype or a
// scalar, f one row of the functor table (binary_pointwise_functors.h). The op
// layer (ops/math/binary_pointwise.h) chooses the compute type from the op's
// promotion rule; the engine converts each operand into it chunk by chunk,
// walks the views in stride order (elementwise.h's iteration) and stores the
// result into out's dtype (a comparison's 1 / 0 into bool or any other dtype).
#pragma once

#include <memory>

#include "elementwise.h"

namespace canopy::kernels {

// The functor table's rows (name, functor type in binary_pointwise_functors.h,
// pointwise_special_functors.h, pointwise_activation_functors.h and
// pointwise_loss_functors.h).
#define CANOPY_POINTWISE_OPS(X)                  \
  X(kEq, EqFn)                                   \
  X(kGt, GtFn)                                   \
  X(kGe, GeFn)                                   \
  X(kLt, LtFn)                                   \
  X(kLe, LeFn)                                   \
  X(kNe, NeFn)                                   \
  X(kMaximum, MaximumFn)                         \
  X(kMinimum, MinimumFn)                         \
  X(kLogicalAnd, LogicalAndFn)                   \
  X(kLogicalOr, LogicalOrFn)                     \
  X(kLogicalXor, LogicalXorFn)                   \
  X(kClampMin, ClampMinFn)                       \
  X(kClampMax, ClampMaxFn)                       \
  X(kClamp, ClampFn)                             \
  X(kPow, PowFn)                                 \
  X(kPowScalar, PowScalarFn)                     \
  X(kMaskedFill, MaskedFillFn)                   \
  X(kAddcdiv, AddcdivFn)                         \
  X(kFmod, FmodFn)                               \
  X(kBitwiseAnd, BitwiseAndFn)                   \
  X(kBitwiseOr, BitwiseOrFn)                     \
  X(kBitwiseXor, BitwiseXorFn)                   \
  X(kGcd, GcdFn)                                 \
  X(kAtan2, Atan2Fn)                             \
  X(kRemainder, RemainderFn)                     \
  X(kFloorDivide, FloorDivideFn)                 \
  X(kLeftShift, LeftShiftFn)                     \
  X(kRightShift, RightShiftFn)                   \
  X(kLerp, LerpFn)                               \
  X(kAddcmul, AddcmulFn)                         \
  X(kXLogY, XLogYFn)                             \
  X(kLogAddExp, LogAddExpFn)                     \
  X(kLogAddExp2, LogAddExp2Fn)                   \
  X(kRsub, RsubFn)                               \
  X(kIsClose, IsCloseNotNanFn)                   \
  X(kIsCloseEqualNan, IsCloseEqualNanFn)         \
  X(kSinc, SincFn)                               \
  X(kErfinv, ErfinvFn)                           \
  X(kDigamma, DigammaFn)                         \
  X(kLgamma, LgammaFn)                           \
  X(kSignbit, SignbitFn)                         \
  X(kNanToNum, NanToNumFn)                       \
  X(kRoundDecimals, RoundDecimalsFn)             \
  X(kHeaviside, HeavisideFn)                     \
  X(kPrelu, PreluFn)                             \
  X(kAddRelu, AddReluFn)                         \
  X(kShrink, ShrinkFn)                           \
  X(kGluSigmoid, GluSigmoidFn)                   \
  X(kGeluErfMul, GeluErfMulFn)                   \
  X(kGeluTanhMul, GeluTanhMulFn)                 \
  X(kFatreluMul, FatreluMulFn)                   \
  X(kL1Loss, L1LossFn)                           \
  X(kMseLoss, MseLossFn)                         \
  X(kSmoothL1Loss, SmoothL1LossFn)               \
  X(kSoftMarginLoss, SoftMarginLossFn)           \
  X(kBinaryCrossEntropy, BinaryCrossEntropyFn)   \
  X(kBceWithLogits, BceWithLogitsFn)             \
  X(kKlDiv, KlDivFn)                             \
  X(kKlDivLogTarget, KlDivLogTargetFn)           \
  X(kHingeLoss, HingeLossFn)                     \
  X(kHingeEmbeddingLoss, HingeEmbeddingLossFn)   \
  X(kHuberLoss, HuberLossFn)                     \
  X(kGaussianNllLoss, GaussianNllLossFn)         \
  X(kGaussianNllLossFull, GaussianNllLossFullFn) \
  X(kLogit, LogitFn)                             \
  X(kRenormFactor, RenormFactorFn)

enum class PointwiseOp : uint8_t {
#define CANOPY_POINTWISE_ENUM(op, fn) op,
  CANOPY_POINTWISE_OPS(CANOPY_POINTWISE_ENUM)
#undef CANOPY_POINTWISE_ENUM
};

// Operands of the widest functors (Addcdiv: self, tensor1, tensor2, value;
// BCE with logits: four tensors), each of which may be a tensor.
inline constexpr int kMaxPointwiseOperands = 4;
static_assert(kMaxPointwiseOperands <= kMaxElementwiseInputs, "every operand of a pointwise step may be a tensor");

struct PointwiseDesc {
  PointwiseOp op = PointwiseOp::kEq;
  ComputeType compute = ComputeType::kF32;
  // With compute kI64: the operands are promoted to UINT64 and compute in
  // uint64_t, since int64 would see values from 2^63 on as negative (2^63 > 5
  // would be false).
  bool unsigned_compute = false;
  int num_operands = 0;
  // Operand k is a scalar when is_scalar[k]; the tensor operands are
  // view.inputs[0..view.num_inputs) in operand order.
  bool is_scalar[kMaxPointwiseOperands] = {};
  ScalarValue scalars[kMaxPointwiseOperands];
  ElementwiseDesc view;  // shape, out and the tensor operands; op fields unused
};

const char* PointwiseOpName(PointwiseOp op);
// The operands the functor of `op` takes.
int PointwiseArity(PointwiseOp op);
std::unique_ptr<Step> MakePointwiseStep(const PointwiseDesc& desc);

}  // namespace canopy::kernels
