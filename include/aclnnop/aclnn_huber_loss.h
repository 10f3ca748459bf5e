/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_huber_loss.h: aclnnHuberLoss, the elementwise Huber loss.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_HUBER_LOSS_H_
#define CANOPY_ACLNNOP_ACLNN_HUBER_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* With e = predictions - targets: loss = 0.5 e^2 where |e| <= delta, else delta (|e| - 0.5 delta); delta
 * above 0. predictions, targets and loss: FLOAT, FLOAT16 or BFLOAT16, one dtype and one shape. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnHuberLossGetWorkspaceSize(const aclTensor *predictions, const aclTensor *targets,
                                                               float delta, aclTensor *loss, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnHuberLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_HUBER_LOSS_H_ */
