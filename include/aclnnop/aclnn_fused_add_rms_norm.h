/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fused_add_rms_norm.h: aclnnFusedAddRmsNorm, x1 * scale + x2 followed by RmsNorm.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FUSED_ADD_RMS_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_FUSED_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* xOut = x1 * scale + x2; yOut = xOut / sqrt(mean(xOut^2) + epsilon) * gamma over the trailing dims gamma
 * spans; rstdOut (FLOAT) holds one value per row. x1, x2, gamma, yOut and xOut: FLOAT, FLOAT16 or BFLOAT16,
 * all one dtype (Atlas A2). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedAddRmsNormGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                                                     const aclTensor *gamma, double epsilon,
                                                                     double scale, const aclTensor *yOut,
                                                                     const aclTensor *rstdOut, const aclTensor *xOut,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedAddRmsNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FUSED_ADD_RMS_NORM_H_ */
