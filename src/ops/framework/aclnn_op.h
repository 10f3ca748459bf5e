// The two C entry points of every op. Phase 1 runs the op's recipe on a Plan
// behind the checks every op shares; phase 2 is the same one line for all ops.
#pragma once

#include "plan.h"

namespace canopy::ops {

template <typename Recipe>
aclnnStatus RunPhase1(const char* op_name, uint64_t* workspace_size, aclOpExecutor** executor, Recipe&& recipe) {
  Plan plan(op_name);
  if (aclnnStatus s = plan.CheckNotNull("workspaceSize", workspace_size); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = plan.CheckNotNull("executor", executor); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = recipe(plan); s != ACLNN_SUCCESS) return s;
  *executor = plan.Finish(workspace_size);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops

// Defines aclnn<Name>(workspace, workspaceSize, executor, stream).
#define CANOPY_ACLNN_PHASE2(Name)                                                                         \
  extern "C" aclnnStatus aclnn##Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,   \
                                     aclrtStream stream) {                                                \
    return ::canopy::LaunchExecutor("aclnn" #Name, workspace, workspaceSize, executor, stream);          \
  }

// Returns from the enclosing recipe when a check fails.
#define CANOPY_CHECK(expr)                                                        \
  do {                                                                            \
    if (const aclnnStatus canopy_check_status_ = (expr); canopy_check_status_ != ACLNN_SUCCESS) \
      return canopy_check_status_;                                                \
  } while (0)
