// aclnnSigmoid, aclnnInplaceSigmoid: out = 1 / (1 + e^-self) (torch.sigmoid).
#include "aclnnop/aclnn_sigmoid.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The document's Atlas A2 lists: FLOAT, FLOAT16, BFLOAT16 out of place; in place also DOUBLE and complex.
constexpr DtypeSet kHalfAndSingle = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr UnaryRule kSigmoid{.op = UnaryOp::kSigmoid,
                             .self = kHalfAndSingle,
                             .out = kHalfAndSingle,
                             .inplace = kHalfAndSingle | DtypeSet{ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}};

aclnnStatus PlanSigmoid(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kSigmoid, self, out);
}
aclnnStatus PlanInplaceSigmoid(Plan& plan, const aclTensor* selfRef) {
  return PlanInplaceUnary(plan, kSigmoid, selfRef);
}

}  // namespace

CANOPY_ACLNN_OP(Sigmoid, PlanSigmoid, (OpTraits{.header = "aclnnop/aclnn_sigmoid.h", .dtypes = kSigmoid.self}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceSigmoid, PlanInplaceSigmoid,
                (OpTraits{.header = "aclnnop/aclnn_sigmoid.h", .dtypes = kSigmoid.inplace, .in_place = true}),
                (aclTensor*, selfRef))
