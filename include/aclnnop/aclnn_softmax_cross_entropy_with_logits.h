/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_softmax_cross_entropy_with_logits.h: aclnnSoftmaxCrossEntropyWithLogits, the softmax cross-entropy loss
 * and its gradient. Every operator has two phases: aclnnXxxGetWorkspaceSize validates the arguments and builds an
 * executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_
#define CANOPY_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* For features and labels [batch, classes]: loss[b] = -sum_c labels * log_softmax(features);
 * backprop = softmax(features) - labels. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor *features,
                                                                                   aclTensor *labels, aclTensor *loss,
                                                                                   aclTensor *backprop,
                                                                                   uint64_t *workspaceSize,
                                                                                   aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxCrossEntropyWithLogits(void *workspace, uint64_t workspaceSize,
                                                                   aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_ */
