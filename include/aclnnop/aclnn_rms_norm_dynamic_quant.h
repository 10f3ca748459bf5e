/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rms_norm_dynamic_quant.h: aclnnRmsNormDynamicQuant.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RMS_NORM_DYNAMIC_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_RMS_NORM_DYNAMIC_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormDynamicQuantGetWorkspaceSize(
    const aclTensor *x, const aclTensor *gamma, const aclTensor *smoothScalesOptional, const aclTensor *betaOptional,
    double epsilon, int64_t dstType, const aclTensor *yOut, const aclTensor *scaleOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormDynamicQuant(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RMS_NORM_DYNAMIC_QUANT_H_ */
