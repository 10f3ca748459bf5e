/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dropout_do_mask.h: aclnnDropoutDoMask.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DROPOUT_DO_MASK_H_
#define CANOPY_ACLNNOP_ACLNN_DROPOUT_DO_MASK_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutDoMaskGetWorkspaceSize(const aclTensor *self, const aclTensor *mask,
                                                                   double prob, aclTensor *out, uint64_t *workspaceSize,
                                                                   aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutDoMask(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DROPOUT_DO_MASK_H_ */
