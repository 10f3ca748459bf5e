/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dynamic_quant.h: aclnnDynamicQuant
 * (per-token symmetric dynamic quantisation to INT8 / INT4).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DYNAMIC_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_DYNAMIC_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDynamicQuantGetWorkspaceSize(const aclTensor *x,
                                                                  const aclTensor *smoothScalesOptional,
                                                                  const aclTensor *yOut, const aclTensor *scaleOut,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDynamicQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DYNAMIC_QUANT_H_ */
