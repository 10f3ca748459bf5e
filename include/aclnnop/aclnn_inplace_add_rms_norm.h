/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_inplace_add_rms_norm.h: aclnnInplaceAddRmsNorm.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddRmsNormGetWorkspaceSize(aclTensor *x1Ref, aclTensor *x2Ref,
                                                                       const aclTensor *gamma, double epsilon,
                                                                       const aclTensor *rstdOut,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddRmsNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H_ */
