// aclnnRelu, aclnnInplaceRelu: out = max(self, 0) (torch.relu); integers stay integers, NaN stays NaN.
#include "aclnnop/aclnn_relu.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kReluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BF16};
constexpr UnaryRule kRelu{.op = UnaryOp::kRelu,
                          .self = kReluDtypes,
                          .out = kReluDtypes,
                          .inplace = kReluDtypes | DtypeSet{ACL_UINT8},
                          .out_same_dtype = true};

aclnnStatus PlanRelu(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRelu, self, out);
}
aclnnStatus PlanInplaceRelu(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRelu, selfRef); }

}  // namespace

CANOPY_ACLNN_OP(Relu, PlanRelu, (OpTraits{.header = "aclnnop/aclnn_relu.h", .dtypes = kRelu.self}),
                (const aclTensor*, self), (const aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRelu, PlanInplaceRelu,
                (OpTraits{.header = "aclnnop/aclnn_relu.h", .dtypes = kRelu.inplace, .in_place = true}),
                (aclTensor*, selfRef))
