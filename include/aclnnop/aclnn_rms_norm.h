/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rms_norm.h: aclnnRmsNorm, root-mean-square normalisation over gamma's trailing dims.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RMS_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_RMS_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* yOut = x / sqrt(mean(x^2) + epsilon) * gamma over the trailing dims gamma spans; rstdOut (f32) holds
 * 1 / sqrt(mean(x^2) + epsilon) per row. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma, double epsilon,
                                                             const aclTensor *yOut, const aclTensor *rstdOut,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RMS_NORM_H_ */
