/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_log2.h: aclnnLog2 and aclnnInplaceLog2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LOG2_H_
#define CANOPY_ACLNNOP_ACLNN_LOG2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLog2GetWorkspaceSize(const aclTensor *self, const aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLog2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLog2GetWorkspaceSize(const aclTensor *selfRef, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLog2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LOG2_H_ */
