// aclnnSub, aclnnSubs, aclnnInplaceSub, aclnnInplaceSubs: out = self - alpha * other.
#include "aclnnop/aclnn_sub.h"

#include "binary_arithmetic.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy::ops;

namespace {
constexpr OpTraits kSub{.header = "aclnnop/aclnn_sub.h", .dtypes = kArithmeticDtypes};
}  // namespace

CANOPY_ACLNN_OP(Sub, AlphaTensorRecipe<ElementwiseOp::kSub>, kSub, (const aclTensor*, self), (const aclTensor*, other),
                (const aclScalar*, alpha), (aclTensor*, out))
CANOPY_ACLNN_OP(Subs, AlphaScalarRecipe<ElementwiseOp::kSub>, kSub, (const aclTensor*, self), (const aclScalar*, other),
                (const aclScalar*, alpha), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceSub, InplaceAlphaTensorRecipe<ElementwiseOp::kSub>, InPlace(kSub), (aclTensor*, selfRef),
                (const aclTensor*, other), (const aclScalar*, alpha))
CANOPY_ACLNN_OP(InplaceSubs, InplaceAlphaScalarRecipe<ElementwiseOp::kSub>, InPlace(kSub), (aclTensor*, selfRef),
                (const aclScalar*, other), (const aclScalar*, alpha))
