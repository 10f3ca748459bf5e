/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fused_cross_entropy_loss_with_max_sum.h: the loss (log(sumExpLogits) - predictedLogits) and
 * optionally the softmax of a vocabulary-parallel cross entropy, from its per-row maxima and sums.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FUSED_CROSS_ENTROPY_LOSS_WITH_MAX_SUM_H_
#define CANOPY_ACLNNOP_ACLNN_FUSED_CROSS_ENTROPY_LOSS_WITH_MAX_SUM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize(
    const aclTensor *logitsMax, const aclTensor *sumExpLogits, const aclTensor *predictedLogits, float labelSmoothing,
    const aclTensor *inputOptional, const aclTensor *weightOptional, const aclTensor *vocabParallelLogitsOptional,
    aclTensor *lossOut, aclTensor *softMaxOutOptional, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedCrossEntropyLossWithMaxSum(void *workspace, uint64_t workspaceSize,
                                                                     aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FUSED_CROSS_ENTROPY_LOSS_WITH_MAX_SUM_H_ */
