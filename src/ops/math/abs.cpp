// aclnnAbs: out = |self| (torch.abs); COMPLEX64 gives its FLOAT magnitude, integers stay integers.
#include "aclnnop/aclnn_abs.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kReal = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,  ACL_INT8,
                            ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_UINT8, ACL_BOOL};
constexpr UnaryRule kAbs{.op = UnaryOp::kAbs,
                         .self = kReal | DtypeSet{ACL_COMPLEX64},
                         .out = kReal,
                         .policy = UnaryPolicy::kRealOfComplex,
                         .out_same_dtype = true};

aclnnStatus PlanAbs(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kAbs, self, out);
}

}  // namespace

CANOPY_ACLNN_OP(Abs, PlanAbs, (OpTraits{.header = "aclnnop/aclnn_abs.h", .dtypes = kAbs.self}),
                (const aclTensor*, self), (aclTensor*, out))
