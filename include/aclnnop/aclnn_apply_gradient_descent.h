/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_gradient_descent.h: aclnnApplyGradientDescent, one gradient descent step in place.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_GRADIENT_DESCENT_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_GRADIENT_DESCENT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* var = var - alpha * delta, computed in FLOAT. var, alpha (one element) and delta (var's shape): FLOAT,
 * FLOAT16 or BFLOAT16, one dtype (Atlas A2). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyGradientDescentGetWorkspaceSize(aclTensor *var, const aclTensor *alpha,
                                                                          const aclTensor *delta,
                                                                          uint64_t *workspaceSize,
                                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyGradientDescent(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_GRADIENT_DESCENT_H_ */
