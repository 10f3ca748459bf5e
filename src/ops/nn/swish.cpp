// aclnnSwish: x * sigmoid(beta * x), beta 1 when betaOptional is null (its
// dtype must cast to FLOAT; the value is taken as a float). aclnnFastGelu: the
// same with beta 1.702 (x / (1 + e^(-1.702 x)), CANN's Atlas A2 formula).
// aclnnSquaredRelu: max(x, 0)^2. out has self's dtype and shape; unary engine.
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_squared_relu.h"
#include "aclnnop/aclnn_swish.h"
#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr UnaryRule kSwish{.op = UnaryOp::kSwish, .self = kDtypes, .out = kDtypes, .out_same_dtype = true};
constexpr UnaryRule kSquaredRelu{
    .op = UnaryOp::kSquaredRelu, .self = kDtypes, .out = kDtypes, .out_same_dtype = true, .self_name = "input"};
constexpr double kFastGeluBeta = 1.702;

aclnnStatus PlanSwish(Plan& plan, const aclTensor* self, const aclScalar* betaOptional, const aclTensor* out) {
  if (betaOptional == nullptr) return PlanUnary(plan, kSwish, self, out, UnaryParams{.a = 1.0});
  const double beta = static_cast<float>(ScalarIn(*betaOptional, ACL_FLOAT).real);
  return PlanUnary(plan, kSwish, self, out, UnaryParams{.a = beta},
                   {{"betaOptional", betaOptional, ScalarRule::kCastsToFloat}});
}

aclnnStatus PlanFastGelu(Plan& plan, const aclTensor* self, const aclTensor* out) {
  if (out->dtype != self->dtype) {  // CANN checks this before self's list
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must have self's dtype %s",
                       DtypeName(out->dtype), DtypeName(self->dtype));
  }
  return PlanUnary(plan, kSwish, self, out, UnaryParams{.a = kFastGeluBeta});
}

aclnnStatus PlanSquaredRelu(Plan& plan, const aclTensor* input, const aclTensor* out) {
  return PlanUnary(plan, kSquaredRelu, input, out);
}

constexpr const char* kExample = "f32[2,3] f32[2,3]";

}  // namespace

CANOPY_ACLNN_OP(Swish, PlanSwish,
                (OpTraits{
                    .header = "aclnnop/aclnn_swish.h", .dtypes = kDtypes, .example = "f32[2,3] f32:1.5 f32[2,3]"}),
                (const aclTensor*, self), (const aclScalar*, betaOptional, optional), (aclTensor*, out))
CANOPY_ACLNN_OP(FastGelu, PlanFastGelu,
                (OpTraits{.header = "aclnnop/aclnn_fast_gelu.h", .dtypes = kDtypes, .example = kExample}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(SquaredRelu, PlanSquaredRelu,
                (OpTraits{.header = "aclnnop/aclnn_squared_relu.h", .dtypes = kDtypes, .example = kExample}),
                (const aclTensor*, input), (const aclTensor*, out))
