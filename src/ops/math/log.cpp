// aclnnLog, aclnnInplaceLog: out = ln(self) (torch.log; NaN below 0, -inf at 0). Bool and integer inputs compute in
// FLOAT.
#include "aclnnop/aclnn_log.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr UnaryRule kLog{.op = UnaryOp::kLog,
                         .self = kFloats | DtypeSet{ACL_BOOL, ACL_INT64, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8},
                         .out = kFloats,
                         .inplace = kFloats,
                         .policy = UnaryPolicy::kPromoteIntegers,
                         .self_name = "self",
                         .inplace_name = "selfRef"};

aclnnStatus PlanLog(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kLog, self, out);
}
aclnnStatus PlanInplaceLog(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kLog, selfRef); }

}  // namespace

CANOPY_ACLNN_OP(Log, PlanLog, (OpTraits{.header = "aclnnop/aclnn_log.h", .dtypes = kLog.self}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceLog, PlanInplaceLog,
                (OpTraits{.header = "aclnnop/aclnn_log.h", .dtypes = kLog.inplace, .in_place = true}),
                (aclTensor*, selfRef))
