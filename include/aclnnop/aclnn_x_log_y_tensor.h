/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_x_log_y_tensor.h: aclnnXLogYTensor and aclnnInplaceXLogYTensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_X_LOG_Y_TENSOR_H_
#define CANOPY_ACLNNOP_ACLNN_X_LOG_Y_TENSOR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnXLogYTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                                 aclTensor *out, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnXLogYTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceXLogYTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
                                                                        uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceXLogYTensor(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_X_LOG_Y_TENSOR_H_ */
