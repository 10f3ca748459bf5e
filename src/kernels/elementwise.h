// Elementwise kernels over strided, broadcast, mixed-dtype operands: copy/cast,
// fill, and the arithmetic binaries. Operands are converted chunk by chunk into
// a compute type in L1-sized buffers, so one kernel serves every dtype pair, and
// contiguous operands already in the compute type are used in place.
#pragma once

#include <memory>

#include "element_types.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

inline constexpr int kMaxRank = 16;
// Tensor operands a pointwise step reads (BinaryCrossEntropyWithLogits reads four).
inline constexpr int kMaxElementwiseInputs = 4;

enum class ComputeType : uint8_t { kF32, kF64, kI64, kC64, kC128 };

enum class ElementwiseOp : uint8_t {
  kCopy,      // out = a (with conversion): cast, contiguous copies, broadcast copies
  kFill,      // out = scalar
  kAdd,       // out = a + alpha * b
  kSub,       // out = a - alpha * b
  kMul,       // out = a * b
  kDiv,       // out = a / b
  kDivTrunc,  // out = trunc(a / b)
  kDivFloor,  // out = floor(a / b)
};

struct StridedOperand {
  BufferRef buffer;
  aclDataType dtype = ACL_FLOAT;
  int64_t strides[kMaxRank] = {};  // in elements; 0 along broadcast dimensions
};

struct ElementwiseDesc {
  ElementwiseOp op = ElementwiseOp::kCopy;
  ComputeType compute = ComputeType::kF32;
  int rank = 0;
  int64_t shape[kMaxRank] = {};
  StridedOperand out;
  int num_inputs = 0;  // tensor operands: a, then b (the arithmetic ops read at most two)
  StridedOperand inputs[kMaxElementwiseInputs];
  ScalarValue alpha = ScalarValue::Integer(1);
  // For kFill the value; for a binary op with one tensor input, the b operand.
  ScalarValue scalar;
};

// The compute type an op on `dtype` runs in (fp16/bf16 compute in f32).
ComputeType ComputeTypeOf(aclDataType dtype);
// The compute type that converts `src` to `dst` without losing what `dst` can hold.
ComputeType CastComputeType(aclDataType src, aclDataType dst);

// The iteration every pointwise kernel walks: dimensions ordered by stride
// (output first, then inputs), so permuted dense operands run in memory order,
// then the dimensions all operands traverse contiguously merged (rank >= 1).
ElementwiseDesc OrderAndCoalesce(const ElementwiseDesc& desc);

// Builds the step; it walks OrderAndCoalesce(desc).
std::unique_ptr<Step> MakeElementwiseStep(const ElementwiseDesc& desc);

}  // namespace canopy::kernels
