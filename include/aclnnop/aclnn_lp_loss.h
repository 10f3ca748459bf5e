/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_lp_loss.h: aclnnLpLoss, the Lp loss (p = 1).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LP_LOSS_H_
#define CANOPY_ACLNNOP_ACLNN_LP_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = |predict - label| (p must be 1), kept ("none") or its "mean" or "sum". predict, label and out:
 * FLOAT, FLOAT16 or BFLOAT16, one dtype; predict and label one shape, not empty. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLpLossGetWorkspaceSize(const aclTensor *predict, const aclTensor *label, int64_t p,
                                                            const char *reduction, const aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLpLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LP_LOSS_H_ */
