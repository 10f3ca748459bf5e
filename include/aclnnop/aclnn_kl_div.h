/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_kl_div.h: aclnnKlDiv.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_KL_DIV_H_
#define CANOPY_ACLNNOP_ACLNN_KL_DIV_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnKlDivGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                           int64_t reduction, bool logTarget, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnKlDiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_KL_DIV_H_ */
