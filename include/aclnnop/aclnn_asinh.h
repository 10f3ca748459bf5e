/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_asinh.h: aclnnAsinh and aclnnInplaceAsinh.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ASINH_H_
#define CANOPY_ACLNNOP_ACLNN_ASINH_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAsinhGetWorkspaceSize(const aclTensor *input, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAsinh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAsinhGetWorkspaceSize(aclTensor *inputRef, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAsinh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ASINH_H_ */
