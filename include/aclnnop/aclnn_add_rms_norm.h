/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_rms_norm.h: aclnnAddRmsNorm, x1 + x2 followed by RmsNorm.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* xOut = x1 + x2; yOut = RmsNorm(xOut) * gamma; rstdOut (f32) per row. rstdOut and xOut may be null
 * (rstdOut given requires xOut). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                                                const aclTensor *gamma, double epsilon, aclTensor *yOut,
                                                                aclTensor *rstdOut, aclTensor *xOut,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_H_ */
