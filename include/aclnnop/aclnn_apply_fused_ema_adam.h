/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_fused_ema_adam.h: one Adam step (mode 0: L2, 1: AdamW decay)
 * in place on varRef, mRef, vRef, then the EMA weights sRef follow the new var.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_FUSED_EMA_ADAM_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_FUSED_EMA_ADAM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* step: one INT64 element, read when the step runs. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyFusedEmaAdamGetWorkspaceSize(
    const aclTensor *grad, aclTensor *varRef, aclTensor *mRef, aclTensor *vRef, aclTensor *sRef, const aclTensor *step,
    double lr, double emaDecay, double beta1, double beta2, double eps, int64_t mode, bool biasCorrection,
    double weightDecay, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyFusedEmaAdam(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_FUSED_EMA_ADAM_H_ */
