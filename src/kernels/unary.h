// The unary pointwise engine: out = f(in) over strided views of any storage
// dtype, f one row of the functor table (unary_functors.h). An op chooses the
// compute type (its dtype policy, ops/math/unary_pointwise.h); the engine
// converts, walks the view in stride order (elementwise.h's iteration) and runs
// the best kernel the CPU has (cpu_features.h): AVX-512 lanes that widen,
// compute and round f32 / fp16 / bf16 in one pass, AVX2 on f32 chunks, and a
// portable loop that evaluates the float64 reference.
#pragma once

#include <memory>

#include "elementwise.h"

namespace canopy::kernels {

// The functor table's rows (name, functor type in unary_functors.h and
// unary_math_functors.h).
#define CANOPY_UNARY_OPS(X)      \
  X(kExp, ExpFn)                 \
  X(kSigmoid, SigmoidFn)         \
  X(kTanh, TanhFn)               \
  X(kRelu, ReluFn)               \
  X(kAbs, AbsFn)                 \
  X(kNeg, NegFn)                 \
  X(kSqrt, SqrtFn)               \
  X(kSin, SinFn)                 \
  X(kCos, CosFn)                 \
  X(kLog, LogFn)                 \
  X(kSilu, SiluFn)               \
  X(kHardswish, HardswishFn)     \
  X(kSign, SignFn)               \
  X(kHardsigmoid, HardsigmoidFn) \
  X(kLeakyRelu, LeakyReluFn)     \
  X(kSoftplus, SoftplusFn)       \
  X(kElu, EluFn)                 \
  X(kGeluTanh, GeluTanhFn)       \
  X(kGeluErf, GeluErfFn)         \
  X(kThreshold, ThresholdFn)     \
  X(kLogicalNot, LogicalNotFn)   \
  X(kExp2, Exp2Fn)               \
  X(kExpm1, Expm1Fn)             \
  X(kLog2, Log2Fn)               \
  X(kLog10, Log10Fn)             \
  X(kLog1p, Log1pFn)             \
  X(kRsqrt, RsqrtFn)             \
  X(kReciprocal, ReciprocalFn)   \
  X(kFloor, FloorFn)             \
  X(kCeil, CeilFn)               \
  X(kRound, RoundFn)             \
  X(kTrunc, TruncFn)             \
  X(kFrac, FracFn)               \
  X(kErf, ErfFn)                 \
  X(kErfc, ErfcFn)               \
  X(kTan, TanFn)                 \
  X(kAsin, AsinFn)               \
  X(kAcos, AcosFn)               \
  X(kAtan, AtanFn)               \
  X(kSinh, SinhFn)               \
  X(kCosh, CoshFn)               \
  X(kAsinh, AsinhFn)             \
  X(kAcosh, AcoshFn)             \
  X(kAtanh, AtanhFn)             \
  X(kSquare, SquareFn)           \
  X(kIsFinite, IsFiniteFn)       \
  X(kIsInf, IsInfFn)             \
  X(kIsPosInf, IsPosInfFn)       \
  X(kIsNegInf, IsNegInfFn)       \
  X(kHardtanh, HardtanhFn)       \
  X(kMish, MishFn)               \
  X(kLogSigmoid, LogSigmoidFn)   \
  X(kHardshrink, HardshrinkFn)   \
  X(kSoftshrink, SoftshrinkFn)   \
  X(kSwish, SwishFn)             \
  X(kSquaredRelu, SquaredReluFn)

enum class UnaryOp : uint8_t {
#define CANOPY_UNARY_ENUM(op, fn) op,
  CANOPY_UNARY_OPS(CANOPY_UNARY_ENUM)
#undef CANOPY_UNARY_ENUM
};

// Attributes of the ops that take them (a slope, a threshold, bounds), in
// the order the functor documents. a_integer and b_integer hold a and b for
// functors that are exact on integers (a threshold compared with int64 values).
struct UnaryParams {
  double a = 0;
  double b = 0;
  double c = 0;
  int64_t a_integer = 0;
  int64_t b_integer = 0;
};

struct UnaryDesc {
  UnaryOp op = UnaryOp::kExp;
  ComputeType compute = ComputeType::kF32;
  UnaryParams params;
  // The view: shape, the output and inputs[0] (num_inputs 1); op fields unused.
  ElementwiseDesc view;
};

const char* UnaryOpName(UnaryOp op);
std::unique_ptr<Step> MakeUnaryStep(const UnaryDesc& desc);

// values[i] = f(values[i]) on n contiguous f32 values with the kernel a
// UnaryStep computing in f32 would run (AVX-512, AVX2, else the float64
// reference), for steps that apply an activation inside a loop of their own
// (the gated units of glu.h).
void UnaryF32InPlace(UnaryOp op, const UnaryParams& params, float* values, int64_t n);

// The vector kernels, each in a file compiled for its instruction set; call
// only when Cpu() has it. Avx512: n contiguous elements, src and dst each f32,
// fp16 or bf16. Avx2: n contiguous f32.
void UnaryAvx512(UnaryOp op, const UnaryParams& params, aclDataType src_dtype, const void* src, aclDataType dst_dtype,
                 void* dst, int64_t n);
// Avx512Bf16: n contiguous bf16 to bf16, only when Cpu() also has AVX512-BF16.
void UnaryAvx512Bf16(UnaryOp op, const UnaryParams& params, const void* src, void* dst, int64_t n);
void UnaryAvx2(UnaryOp op, const UnaryParams& params, const float* src, float* dst, int64_t n);

}  // namespace canopy::kernels
