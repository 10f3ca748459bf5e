/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_gt_tensor.h: aclnnGtTensor and aclnnInplaceGtTensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GT_TENSOR_H_
#define CANOPY_ACLNNOP_ACLNN_GT_TENSOR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGtTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                              aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGtTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceGtTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceGtTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GT_TENSOR_H_ */
