/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_rms_norm_dynamic_quant.h: aclnnAddRmsNormDynamicQuant.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNormDynamicQuantGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *gamma, const aclTensor *smoothScale1Optional,
    const aclTensor *smoothScale2Optional, double epsilon, aclTensor *y1Out, aclTensor *y2Out, aclTensor *xOut,
    aclTensor *scale1Out, aclTensor *scale2Out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNormDynamicQuant(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_H_ */
