/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_batch_norm.h: aclnnBatchNorm, batch normalisation over every dim but the channel (dim 1).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BATCH_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_BATCH_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* output = (input - mean) / sqrt(var + eps) * weight + bias per channel: training takes the batch's mean and
 * (biased) variance into saveMean / saveInvstd and updates runningMean / runningVar with momentum (the variance
 * unbiased there); inference takes runningMean / runningVar. weight, bias, runningMean, runningVar may be null
 * (1, 0, 0, 1). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
                                                               const aclTensor *bias, aclTensor *runningMean,
                                                               aclTensor *runningVar, bool training, double momentum,
                                                               double eps, aclTensor *output, aclTensor *saveMean,
                                                               aclTensor *saveInvstd, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BATCH_NORM_H_ */
