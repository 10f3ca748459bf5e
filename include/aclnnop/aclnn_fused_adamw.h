/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fused_adamw.h: one AdamW step over lists of parameters
 * (torch._fused_adamw_), in place on paramsRef, expAvgsRef, expAvgSqsRef and,
 * with amsgrad, maxExpAvgSqsRef.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FUSED_ADAMW_H_
#define CANOPY_ACLNNOP_ACLNN_FUSED_ADAMW_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* stateSteps: one FLOAT or INT64 element per parameter. gradScaleOptional divides
 * the grads; foundInfOptional equal to 1 skips the step. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedAdamwGetWorkspaceSize(
    const aclTensorList *paramsRef, const aclTensorList *grads, const aclTensorList *expAvgsRef,
    const aclTensorList *expAvgSqsRef, const aclTensorList *maxExpAvgSqsRef, const aclTensorList *stateSteps,
    const aclTensor *gradScaleOptional, const aclTensor *foundInfOptional, double lr, double beta1, double beta2,
    double weightDecay, double eps, bool amsgrad, bool maximize, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedAdamw(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FUSED_ADAMW_H_ */
