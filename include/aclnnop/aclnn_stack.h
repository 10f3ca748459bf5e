/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_stack.h: the tensors of a list, all of one shape, joined along
 * a new dimension. Every operator has two phases: aclnnXxxGetWorkspaceSize
 * validates the arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_STACK_H_
#define CANOPY_ACLNNOP_ACLNN_STACK_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnStack(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_STACK_H_ */
