/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_nll_loss2d.h: aclnnNLLLoss2d.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NLL_LOSS2D_H_
#define CANOPY_ACLNNOP_ACLNN_NLL_LOSS2D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                               const aclTensor *weight, int64_t reduction,
                                                               int64_t ignoreIndex, aclTensor *out,
                                                               aclTensor *totalWeightOut, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NLL_LOSS2D_H_ */
