/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_adam_w_v2.h: one AdamW step (torch.optim.AdamW) in place on
 * varRef, mRef, vRef (and maxGradNormOptionalRef with amsgrad).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_V2_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* step: one FLOAT or INT64 element, read when the step runs. maxGradNormOptionalRef
 * is required with amsgrad. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyAdamWV2GetWorkspaceSize(aclTensor *varRef, aclTensor *mRef, aclTensor *vRef,
                                                                  aclTensor *maxGradNormOptionalRef,
                                                                  const aclTensor *grad, const aclTensor *step,
                                                                  float lr, float beta1, float beta2, float weightDecay,
                                                                  float eps, bool amsgrad, bool maximize,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyAdamWV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_V2_H_ */
