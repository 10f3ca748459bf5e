// aclnnGtScalar, aclnnInplaceGtScalar: out = (self > other) (torch.gt), other
// a scalar (CANN's TensorScalar deduction; a FLOAT16 self compares with the
// scalar rounded to FLOAT16); out takes any dtype (1 / 0), in place selfRef's own.
#include "aclnnop/aclnn_gt_scalar.h"

#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGtDtypes = {ACL_DOUBLE, ACL_BF16,  ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_UINT32, ACL_INT64,
                                ACL_UINT64, ACL_INT16, ACL_UINT16,  ACL_INT8,  ACL_UINT8, ACL_BOOL};
constexpr BinaryRule kGt{.op = PointwiseOp::kGt,
                         .self = kGtDtypes,
                         .other = kGtDtypes,
                         .out = kGtDtypes | DtypeSet{ACL_COMPLEX64, ACL_COMPLEX128},
                         .inplace = kGtDtypes,
                         .inplace_other = kGtDtypes,
                         .policy = ResultPolicy::kBool};

aclnnStatus PlanGtScalar(Plan& plan, const aclTensor* self, const aclScalar* other, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kGt, self, other, out, false);
}
aclnnStatus PlanInplaceGtScalar(Plan& plan, const aclTensor* selfRef, const aclScalar* other) {
  return PlanBinaryScalarOp(plan, kGt, selfRef, other, selfRef, true);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_gt_scalar.h", .dtypes = kGtDtypes};

}  // namespace

CANOPY_ACLNN_OP(GtScalar, PlanGtScalar, kTraits, (const aclTensor*, self), (const aclScalar*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceGtScalar, PlanInplaceGtScalar, InPlace(kTraits), (aclTensor*, selfRef),
                (const aclScalar*, other))
