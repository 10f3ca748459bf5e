/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_hinge_embedding_loss.h: aclnnHingeEmbeddingLoss, the hinge embedding loss.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_HINGE_EMBEDDING_LOSS_H_
#define CANOPY_ACLNNOP_ACLNN_HINGE_EMBEDDING_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* loss = input where target is 1, max(0, margin - input) where it is -1, kept ("none") or its "mean" or
 * "sum". input, target and loss: FLOAT, FLOAT16 or BFLOAT16, one dtype and (input, target) one shape. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnHingeEmbeddingLossGetWorkspaceSize(const aclTensor *input, const aclTensor *target,
                                                                        double margin, char *reduction,
                                                                        const aclTensor *loss, uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnHingeEmbeddingLoss(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_HINGE_EMBEDDING_LOSS_H_ */
