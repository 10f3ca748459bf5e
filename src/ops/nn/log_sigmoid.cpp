// aclnnLogSigmoid, aclnnLogSigmoidForward: log(1 / (1 + e^-self))
// (torch.nn.functional.logsigmoid); out of self's dtype and shape.
// LogSigmoidForward's buffer is documented as unused ("暂无用"): CANN's op
// neither checks nor writes it, and neither does Canopy (it may be null).
#include "aclnnop/aclnn_logsigmoid.h"

#include "ops/math/unary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLogSigmoidDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr UnaryRule kLogSigmoid{
    .op = UnaryOp::kLogSigmoid, .self = kLogSigmoidDtypes, .out = kLogSigmoidDtypes, .out_same_dtype = true};

aclnnStatus PlanLogSigmoid(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanUnary(plan, kLogSigmoid, self, out);
}
aclnnStatus PlanLogSigmoidForward(Plan& plan, const aclTensor* self, const aclTensor* out, const aclTensor*) {
  CANOPY_CHECK(PlanUnary(plan, kLogSigmoid, self, out));
  plan.SkipOutput();  // buffer keeps its parameter index
  return ACLNN_SUCCESS;
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_logsigmoid.h", .dtypes = kLogSigmoidDtypes};

}  // namespace

CANOPY_ACLNN_OP(LogSigmoid, PlanLogSigmoid, kTraits, (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(LogSigmoidForward, PlanLogSigmoidForward, WithExample(kTraits, "f32[2,3] f32[2,3] f32[2,3]"),
                (const aclTensor*, self), (aclTensor*, out), (aclTensor*, buffer, optional))
