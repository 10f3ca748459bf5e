// aclnnMul, aclnnMuls, aclnnInplaceMul, aclnnInplaceMuls: out = self * other.
#include "aclnnop/aclnn_mul.h"

#include "binary_arithmetic.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy::ops;

namespace {
constexpr OpTraits kMul{.header = "aclnnop/aclnn_mul.h", .dtypes = kArithmeticDtypes};
}  // namespace

CANOPY_ACLNN_OP(Mul, TensorRecipe<ElementwiseOp::kMul>, kMul, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(Muls, ScalarRecipe<ElementwiseOp::kMul>, kMul, (const aclTensor*, self), (const aclScalar*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceMul, InplaceTensorRecipe<ElementwiseOp::kMul>, InPlace(kMul), (aclTensor*, selfRef),
                (const aclTensor*, other))
CANOPY_ACLNN_OP(InplaceMuls, InplaceScalarRecipe<ElementwiseOp::kMul>, InPlace(kMul), (aclTensor*, selfRef),
                (const aclScalar*, other))
