// aclnnAdd, aclnnAdds, aclnnInplaceAdd, aclnnInplaceAdds: out = self + alpha * other.
#include "aclnnop/aclnn_add.h"

#include "binary_arithmetic.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy::ops;

namespace {
constexpr OpTraits kAdd{.header = "aclnnop/aclnn_add.h", .dtypes = kArithmeticDtypes};
}  // namespace

CANOPY_ACLNN_OP(Add, AlphaTensorRecipe<ElementwiseOp::kAdd>, kAdd, (const aclTensor*, self), (const aclTensor*, other),
                (const aclScalar*, alpha), (aclTensor*, out))
CANOPY_ACLNN_OP(Adds, AlphaScalarRecipe<ElementwiseOp::kAdd>, kAdd, (const aclTensor*, self), (const aclScalar*, other),
                (const aclScalar*, alpha), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAdd, InplaceAlphaTensorRecipe<ElementwiseOp::kAdd>, InPlace(kAdd), (const aclTensor*, selfRef),
                (const aclTensor*, other), (const aclScalar*, alpha))
CANOPY_ACLNN_OP(InplaceAdds, InplaceAlphaScalarRecipe<ElementwiseOp::kAdd>, InPlace(kAdd), (const aclTensor*, selfRef),
                (const aclScalar*, other), (const aclScalar*, alpha))
