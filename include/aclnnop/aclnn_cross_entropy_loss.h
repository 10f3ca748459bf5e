/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_cross_entropy_loss.h: the cross entropy of class-index targets with input's log-softmax
 * (torch.nn.functional.cross_entropy), with class weights, an ignored index and label smoothing.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H_
#define CANOPY_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(
    const aclTensor *input, const aclTensor *target, const aclTensor *weightOptional, char *reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss,
    const aclTensor *lossOut, const aclTensor *logProbOut, const aclTensor *zlossOut, const aclTensor *lseForZlossOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H_ */
