/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_rms_norm_dynamic_quant_v2.h: aclnnAddRmsNormDynamicQuantV2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_V2_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *gamma, const aclTensor *smoothScale1Optional,
    const aclTensor *smoothScale2Optional, const aclTensor *betaOptional, double epsilon,
    const aclBoolArray *outputMaskOptional, aclTensor *y1Out, aclTensor *y2Out, aclTensor *xOut, aclTensor *scale1Out,
    aclTensor *scale2Out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNormDynamicQuantV2(void *workspace, uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_V2_H_ */
