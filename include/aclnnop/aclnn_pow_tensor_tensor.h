/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_pow_tensor_tensor.h: out = self ^ exponent, both tensors
 * (broadcast), and the in-place form.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H_
#define CANOPY_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *exponent,
                                                                     aclTensor *out, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
/* In place: self = self ^ exponent (CANN names the in-place tensor `self`). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor *self,
                                                                            const aclTensor *exponent,
                                                                            uint64_t *workspaceSize,
                                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowTensorTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePowTensorTensor(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H_ */
