/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_acos.h: aclnnAcos and aclnnInplaceAcos.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ACOS_H_
#define CANOPY_ACLNNOP_ACLNN_ACOS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAcosGetWorkspaceSize(const aclTensor *input, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAcos(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAcosGetWorkspaceSize(aclTensor *inputRef, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAcos(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ACOS_H_ */
