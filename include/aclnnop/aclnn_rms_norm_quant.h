/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rms_norm_quant.h: aclnnRmsNormQuant.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RMS_NORM_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_RMS_NORM_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormQuantGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma,
                                                                  const aclTensor *beta, const aclTensor *scale,
                                                                  const aclTensor *offset, double epsilon, aclTensor *y,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RMS_NORM_QUANT_H_ */
