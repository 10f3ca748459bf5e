// aclnnAdd, aclnnAdds, aclnnInplaceAdd, aclnnInplaceAdds: out = self + alpha * other.
#include "aclnnop/aclnn_add.h"

#include "binary_arithmetic.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy::ops;

namespace {
constexpr BinaryArithmetic kAdd{ElementwiseOp::kAdd, /*has_alpha=*/true};
}  // namespace

extern "C" {

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnAdd", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryTensor(plan, kAdd, self, other, alpha, out, false); }, self, other, alpha,
      out);
}

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnAdds", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryScalar(plan, kAdd, self, other, alpha, out, false); }, self, other, alpha,
      out);
}

aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceAdd", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryTensor(plan, kAdd, selfRef, other, alpha, selfRef, true); }, selfRef, other,
      alpha);
}

aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceAdds", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryScalar(plan, kAdd, selfRef, other, alpha, selfRef, true); }, selfRef, other,
      alpha);
}

}  // extern "C"

CANOPY_ACLNN_PHASE2(Add)
CANOPY_ACLNN_PHASE2(Adds)
CANOPY_ACLNN_PHASE2(InplaceAdd)
CANOPY_ACLNN_PHASE2(InplaceAdds)
