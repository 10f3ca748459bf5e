// aclnnSub, aclnnSubs, aclnnInplaceSub, aclnnInplaceSubs: out = self - alpha * other.
#include "aclnnop/aclnn_sub.h"

#include "binary_arithmetic.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy::ops;

namespace {
constexpr BinaryArithmetic kSub{ElementwiseOp::kSub, /*has_alpha=*/true};
}  // namespace

extern "C" {

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnSub", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryTensor(plan, kSub, self, other, alpha, out, false); }, self, other, alpha,
      out);
}

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnSubs", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryScalar(plan, kSub, self, other, alpha, out, false); }, self, other, alpha,
      out);
}

aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceSub", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryTensor(plan, kSub, selfRef, other, alpha, selfRef, true); }, selfRef, other,
      alpha);
}

aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceSubs", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryScalar(plan, kSub, selfRef, other, alpha, selfRef, true); }, selfRef, other,
      alpha);
}

}  // extern "C"

CANOPY_ACLNN_PHASE2(Sub)
CANOPY_ACLNN_PHASE2(Subs)
CANOPY_ACLNN_PHASE2(InplaceSub)
CANOPY_ACLNN_PHASE2(InplaceSubs)
