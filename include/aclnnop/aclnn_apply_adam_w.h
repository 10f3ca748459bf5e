/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_adam_w.h: one AdamW step in place on varRef, mRef and vRef,
 * with every hyperparameter given as a one-element tensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every tensor has varRef's dtype (FLOAT, FLOAT16 or BFLOAT16); beta1Power and beta2Power are
 * the powers of the previous step. maxGradNormOptional is required with amsgrad and only read. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyAdamWGetWorkspaceSize(
    aclTensor *varRef, aclTensor *mRef, aclTensor *vRef, const aclTensor *beta1Power, const aclTensor *beta2Power,
    const aclTensor *lr, const aclTensor *weightDecay, const aclTensor *beta1, const aclTensor *beta2,
    const aclTensor *eps, const aclTensor *grad, const aclTensor *maxGradNormOptional, bool amsgrad, bool maximize,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyAdamW(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_H_ */
