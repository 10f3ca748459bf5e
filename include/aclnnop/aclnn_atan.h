/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_atan.h: aclnnAtan and aclnnInplaceAtan.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ATAN_H_
#define CANOPY_ACLNNOP_ACLNN_ATAN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAtanGetWorkspaceSize(const aclTensor *input, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAtan(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAtanGetWorkspaceSize(aclTensor *inputRef, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAtan(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ATAN_H_ */
