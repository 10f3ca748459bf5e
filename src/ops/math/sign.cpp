// aclnnSign: result = (self > 0) - (self < 0) (torch.sign; NaN and -0 give 0), bool
// unchanged, complex self / |self| (torch.sgn). result has self's dtype.
#include "aclnnop/aclnn_sign.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSignDtypes = {ACL_DOUBLE, ACL_FLOAT,     ACL_FLOAT16,    ACL_INT32, ACL_INT64,
                                  ACL_BF16,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL};
constexpr UnaryRule kSign{
    .op = UnaryOp::kSign, .self = kSignDtypes, .out = kSignDtypes, .out_same_dtype = true, .out_name = "result"};

aclnnStatus PlanSign(Plan& plan, const aclTensor* self, const aclTensor* result) {
  return PlanUnary(plan, kSign, self, result);
}

}  // namespace

CANOPY_ACLNN_OP(Sign, PlanSign, (OpTraits{.header = "aclnnop/aclnn_sign.h", .dtypes = kSignDtypes}),
                (const aclTensor*, self), (aclTensor*, result))
