/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_binary_cross_entropy_with_logits.h: aclnnBinaryCrossEntropyWithLogits.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H_
#define CANOPY_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
    const aclTensor *self, const aclTensor *target, const aclTensor *weightOptional, const aclTensor *posWeightOptional,
    int64_t reduction, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogits(void *workspace, uint64_t workspaceSize,
                                                                  aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H_ */
