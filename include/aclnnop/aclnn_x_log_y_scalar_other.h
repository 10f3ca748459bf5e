/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_x_log_y_scalar_other.h: aclnnXLogYScalarOther and aclnnInplaceXLogYScalarOther.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_X_LOG_Y_SCALAR_OTHER_H_
#define CANOPY_ACLNNOP_ACLNN_X_LOG_Y_SCALAR_OTHER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnXLogYScalarOtherGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
                                                                      aclTensor *out, uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnXLogYScalarOther(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceXLogYScalarOtherGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
                                                                             uint64_t *workspaceSize,
                                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceXLogYScalarOther(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_X_LOG_Y_SCALAR_OTHER_H_ */
