/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_gaussian_nll_loss.h: aclnnGaussianNllLoss, the Gaussian negative log-likelihood loss.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_H_
#define CANOPY_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = 0.5 (log max(var, eps) + (input - target)^2 / max(var, eps)) (+ 0.5 log(2 pi) when full), kept
 * ("none") or its "mean" or "sum" (reductionOptional; null is "mean"). input, target, var and out: FLOAT,
 * FLOAT16 or BFLOAT16, one dtype (Atlas A2). target is input's shape or has one dim of 1; var is input's
 * shape, that with a last dim of 1, that without its last dim, or a scalar. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGaussianNllLossGetWorkspaceSize(const aclTensor *input, const aclTensor *target,
                                                                     const aclTensor *var, bool full, double eps,
                                                                     char *reductionOptional, const aclTensor *out,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGaussianNllLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_H_ */
