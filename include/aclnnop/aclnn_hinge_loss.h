/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_hinge_loss.h: aclnnHingeLoss, the elementwise hinge loss.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_HINGE_LOSS_H_
#define CANOPY_ACLNNOP_ACLNN_HINGE_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* loss = max(0, 1 - target * predict). predict, target and loss: FLOAT, FLOAT16 or BFLOAT16, one dtype
 * and one shape. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnHingeLossGetWorkspaceSize(const aclTensor *predict, const aclTensor *target,
                                                               aclTensor *loss, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnHingeLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_HINGE_LOSS_H_ */
