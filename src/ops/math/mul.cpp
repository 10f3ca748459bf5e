// aclnnMul, aclnnMuls, aclnnInplaceMul, aclnnInplaceMuls: out = self * other.
#include "aclnnop/aclnn_mul.h"

#include "binary_arithmetic.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy::ops;

namespace {
constexpr BinaryArithmetic kMul{ElementwiseOp::kMul, /*has_alpha=*/false};
}  // namespace

extern "C" {

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnMul", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryTensor(plan, kMul, self, other, nullptr, out, false); }, self, other, out);
}

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnMuls", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryScalar(plan, kMul, self, other, nullptr, out, false); }, self, other, out);
}

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceMul", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryTensor(plan, kMul, selfRef, other, nullptr, selfRef, true); }, selfRef, other);
}

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return RunPhase1(
      "aclnnInplaceMuls", workspaceSize, executor,
      [&](Plan& plan) { return PlanBinaryScalar(plan, kMul, selfRef, other, nullptr, selfRef, true); }, selfRef, other);
}

}  // extern "C"

CANOPY_ACLNN_PHASE2(Mul)
CANOPY_ACLNN_PHASE2(Muls)
CANOPY_ACLNN_PHASE2(InplaceMul)
CANOPY_ACLNN_PHASE2(InplaceMuls)
