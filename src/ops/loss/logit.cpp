// aclnnLogit (torch.logit): log(z / (1 - z)) with z = input clamped into
// [eps, 1 - eps] when eps >= 0 (a negative eps, CANN's recommended -1, clamps
// nothing). out has input's dtype and shape; FLOAT, FLOAT16, BF16, computed in
// FLOAT with eps narrowed to a float, as CANN's kernel does.
#include "aclnnop/aclnn_logit.h"
#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLogitDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT};
constexpr UnaryRule kRule{.self = kLogitDtypes, .out = kLogitDtypes, .out_same_dtype = true, .self_name = "input"};

aclnnStatus PlanLogit(Plan& plan, const aclTensor* input, double eps, const aclTensor* out) {
  return PlanUnaryPointwise(plan, kRule, PointwiseOp::kLogit, input, out,
                            {PointwiseOperand::Scalar(ScalarValue::Real(static_cast<float>(eps)))});
}

}  // namespace

CANOPY_ACLNN_OP(
    Logit, PlanLogit,
    (OpTraits{.header = "aclnnop/aclnn_logit.h", .dtypes = kLogitDtypes, .example = "f32[2,3]{0.1:0.9} -1 f32[2,3]"}),
    (const aclTensor*, input), (double, eps), (const aclTensor*, out))
