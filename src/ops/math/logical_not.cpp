// aclnnLogicalNot, aclnnInplaceLogicalNot: self == 0 (torch.logical_not): a bool
// result, written to out in out's dtype (1 / 0); in place in selfRef's dtype.
#include "aclnnop/aclnn_logical_not.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLogicalNotDtypes = {ACL_BOOL,  ACL_UINT8, ACL_INT8,    ACL_INT16,  ACL_INT32,
                                        ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr UnaryRule kLogicalNot{.op = UnaryOp::kLogicalNot,
                                .self = kLogicalNotDtypes,
                                .out = kLogicalNotDtypes,
                                .inplace = kLogicalNotDtypes,
                                .policy = UnaryPolicy::kBoolOut};

aclnnStatus PlanLogicalNot(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kLogicalNot, self, out);
}
aclnnStatus PlanInplaceLogicalNot(Plan& plan, const aclTensor* selfRef) {
  return PlanInplaceUnary(plan, kLogicalNot, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_logical_not.h", .dtypes = kLogicalNotDtypes};

}  // namespace

CANOPY_ACLNN_OP(LogicalNot, PlanLogicalNot, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLogicalNot, PlanInplaceLogicalNot, InPlace(kTraits), (aclTensor*, selfRef))
