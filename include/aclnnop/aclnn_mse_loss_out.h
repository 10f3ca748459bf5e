/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_mse_loss_out.h: aclnnMseLossOut.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MSE_LOSS_OUT_H_
#define CANOPY_ACLNNOP_ACLNN_MSE_LOSS_OUT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMseLossOutGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                                int64_t reduction, aclTensor *out,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMseLossOut(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MSE_LOSS_OUT_H_ */
