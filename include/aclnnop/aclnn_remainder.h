/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_remainder.h: aclnnRemainderTensorTensor, aclnnInplaceRemainderTensorTensor, aclnnRemainderTensorScalar,
 * aclnnInplaceRemainderTensorScalar and aclnnRemainderScalarTensor. Every operator has two phases:
 * aclnnXxxGetWorkspaceSize validates the arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_REMAINDER_H_
#define CANOPY_ACLNNOP_ACLNN_REMAINDER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRemainderTensorTensorGetWorkspaceSize(const aclTensor *self,
                                                                           const aclTensor *other, aclTensor *out,
                                                                           uint64_t *workspaceSize,
                                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRemainderTensorTensor(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRemainderTensorTensorGetWorkspaceSize(aclTensor *selfRef,
                                                                                  const aclTensor *other,
                                                                                  uint64_t *workspaceSize,
                                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRemainderTensorTensor(void *workspace, uint64_t workspaceSize,
                                                                  aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRemainderTensorScalarGetWorkspaceSize(const aclTensor *self,
                                                                           const aclScalar *other, aclTensor *out,
                                                                           uint64_t *workspaceSize,
                                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRemainderTensorScalar(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRemainderTensorScalarGetWorkspaceSize(aclTensor *selfRef,
                                                                                  const aclScalar *other,
                                                                                  uint64_t *workspaceSize,
                                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRemainderTensorScalar(void *workspace, uint64_t workspaceSize,
                                                                  aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRemainderScalarTensorGetWorkspaceSize(const aclScalar *self,
                                                                           const aclTensor *other, aclTensor *out,
                                                                           uint64_t *workspaceSize,
                                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRemainderScalarTensor(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_REMAINDER_H_ */
