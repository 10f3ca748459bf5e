// aclnnSignbit: 1 where self < 0, else 0, in out's dtype. CANN's Atlas A2
// path compares with 0 (its dedicated kernel exists only on later chips), so
// -0.0 and NaN give 0 there, and so here. Dtypes: the document's A2 column,
// the same list for out.
#include "aclnnop/aclnn_signbit.h"

#include "unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSignbitDtypes = {ACL_FLOAT,  ACL_INT32,  ACL_INT64,  ACL_FLOAT16, ACL_INT16,  ACL_INT8, ACL_UINT8,
                                     ACL_DOUBLE, ACL_UINT32, ACL_UINT64, ACL_BOOL,    ACL_UINT16, ACL_BF16};
constexpr UnaryRule kRule{.self = kSignbitDtypes, .out = kSignbitDtypes, .policy = UnaryPolicy::kBoolOut};

aclnnStatus PlanSignbit(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnaryPointwise(plan, kRule, PointwiseOp::kSignbit, self, out);
}

}  // namespace

CANOPY_ACLNN_OP(Signbit, PlanSignbit,
                (OpTraits{
                    .header = "aclnnop/aclnn_signbit.h", .dtypes = kSignbitDtypes, .example = "f32[2,3] bool[2,3]"}),
                (const aclTensor*, self), (aclTensor*, out))
