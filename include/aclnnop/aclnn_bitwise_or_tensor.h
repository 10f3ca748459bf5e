/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_bitwise_or_tensor.h: aclnnBitwiseOrTensor and aclnnInplaceBitwiseOrTensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BITWISE_OR_TENSOR_H_
#define CANOPY_ACLNNOP_ACLNN_BITWISE_OR_TENSOR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBitwiseOrTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                                     aclTensor *out, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBitwiseOrTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBitwiseOrTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
                                                                            uint64_t *workspaceSize,
                                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBitwiseOrTensor(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BITWISE_OR_TENSOR_H_ */
