/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_std_mean_correction.h: aclnnStdMeanCorrection, the standard deviation and the mean over a list of
 * dimensions. Every operator has two phases: aclnnXxxGetWorkspaceSize validates the arguments and builds an executor,
 * aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_STD_MEAN_CORRECTION_H_
#define CANOPY_ACLNNOP_ACLNN_STD_MEAN_CORRECTION_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* stdOut = the standard deviation of self over dim (the variance divided by max(N - correction, 0))
 * and meanOut = the mean (dim null or empty: every dimension); keepdim keeps the reduced dimensions
 * with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnStdMeanCorrectionGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim,
                                                                       int64_t correction, bool keepdim,
                                                                       aclTensor *stdOut, aclTensor *meanOut,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnStdMeanCorrection(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_STD_MEAN_CORRECTION_H_ */
