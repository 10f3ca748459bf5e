// aclnnTanh, aclnnInplaceTanh: out = tanh(self) (torch.tanh). Bool and integer inputs compute in FLOAT.
#include "aclnnop/aclnn_tanh.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr UnaryRule kTanh{.op = UnaryOp::kTanh,
                          .self = kFloats | DtypeSet{ACL_BOOL, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64},
                          .out = kFloats,
                          .inplace = kFloats,
                          .policy = UnaryPolicy::kPromoteIntegers};

aclnnStatus PlanTanh(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kTanh, self, out);
}
aclnnStatus PlanInplaceTanh(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kTanh, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_tanh.h", .dtypes = kTanh.self};

}  // namespace

CANOPY_ACLNN_OP(Tanh, PlanTanh, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceTanh, PlanInplaceTanh, InPlace(kTraits), (aclTensor*, selfRef))
