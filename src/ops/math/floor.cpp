// aclnnFloor, aclnnInplaceFloor: out = floor(self) (torch.floor); integers unchanged; out has self's dtype.
// Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_floor.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr UnaryRule kRule{
    .op = UnaryOp::kFloor,
    .self = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT64,
                     ACL_UINT32, ACL_UINT16, ACL_UINT8, ACL_BF16},
    .out = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT64,
                    ACL_UINT32, ACL_UINT16, ACL_UINT8, ACL_BF16},
    .inplace = DtypeSet{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT64,
                        ACL_UINT32, ACL_UINT16, ACL_UINT8, ACL_BF16},
    .policy = UnaryPolicy::kSameAsInput,
    .out_same_dtype = true,
};

aclnnStatus PlanFloor(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kRule, self, out);
}
aclnnStatus PlanInplaceFloor(Plan& plan, const aclTensor* selfRef) { return PlanInplaceUnary(plan, kRule, selfRef); }

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_floor.h", .dtypes = kRule.self};

}  // namespace

CANOPY_ACLNN_OP(Floor, PlanFloor, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceFloor, PlanInplaceFloor,
                (OpTraits{.header = kTraits.header, .dtypes = kRule.inplace, .in_place = true}), (aclTensor*, selfRef))
