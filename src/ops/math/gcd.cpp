// aclnnGcd: out = gcd(self, other) elementwise with broadcasting (torch.gcd),
// never negative; gcd(a, 0) = |a|. The operands promote, and CANN's Atlas A2
// code computes in INT16, INT32 or INT64 only (its document also lists INT8
// and UINT8 results, which only newer chips compute); the result is cast into
// any integer out it converts to (kernels/binary_pointwise_functors.h).
#include "aclnnop/aclnn_gcd.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL};
constexpr DtypeSet kOutDtypes = {ACL_UINT8, ACL_INT8,   ACL_UINT16, ACL_INT16,
                                 ACL_INT32, ACL_UINT32, ACL_INT64,  ACL_UINT64};
constexpr BinaryRule kRule{.op = PointwiseOp::kGcd,
                           .self = kInputDtypes,
                           .other = kInputDtypes,
                           .out = kOutDtypes,
                           .compute = {ACL_INT16, ACL_INT32, ACL_INT64}};

aclnnStatus PlanGcd(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kRule, self, other, out, false);
}

}  // namespace

CANOPY_ACLNN_OP(Gcd, PlanGcd,
                (OpTraits{
                    .header = "aclnnop/aclnn_gcd.h", .dtypes = kInputDtypes, .example = "i32[4,2] i32[4,2] i32[4,2]"}),
                (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
