/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_eq_tensor.h: aclnnEqTensor, aclnnInplaceEqTensor: out = (self == other), broadcast.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_EQ_TENSOR_H_
#define CANOPY_ACLNNOP_ACLNN_EQ_TENSOR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEqTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                              aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnEqTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

/* In place: selfRef = (selfRef == other), in selfRef's dtype. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceEqTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceEqTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_EQ_TENSOR_H_ */
