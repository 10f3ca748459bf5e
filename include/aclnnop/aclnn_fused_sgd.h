/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fused_sgd.h: one SGD step over lists of parameters
 * (torch._fused_sgd_), in place on paramsRef, gradsRef (unscaled) and the
 * momentum buffers.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FUSED_SGD_H_
#define CANOPY_ACLNNOP_ACLNN_FUSED_SGD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedSgdGetWorkspaceSize(
    const aclTensorList *paramsRef, const aclTensorList *gradsRef, const aclTensorList *momentumBufferListOptionalRef,
    const aclTensor *gradScaleOptional, float weightDecay, float momentum, float lr, float dampening, bool nesterov,
    bool maximize, bool isFirstStep, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedSgd(void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                                              const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FUSED_SGD_H_ */
