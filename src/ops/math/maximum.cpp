// aclnnMaximum: out = max(self, other) (torch.maximum; NaN where either is NaN); self and other broadcast and promote,
// the result must be castable to out. Dtypes: the Atlas A2 column of CANN's document.
#include "aclnnop/aclnn_maximum.h"

#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64,
                              ACL_INT16, ACL_INT8,    ACL_UINT8,  ACL_BOOL,  ACL_BF16};
constexpr BinaryRule kRule{.op = PointwiseOp::kMaximum,
                           .self = kDtypes,
                           .other = kDtypes,
                           .out = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8,
                                   ACL_UINT8, ACL_BOOL, ACL_BF16},
                           .inplace = kDtypes,
                           .inplace_other = kDtypes,
                           .policy = ResultPolicy::kPromoted};

aclnnStatus PlanMaximum(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kRule, self, other, out, false);
}

constexpr OpTraits kTraits{
    .header = "aclnnop/aclnn_maximum.h", .dtypes = kDtypes, .example = "f32[2,3] f32[2,3] f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Maximum, PlanMaximum, kTraits, (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
