/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_max_pool.h: 2-D max pooling over 3-D and 4-D inputs.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MAX_POOL_H_
#define CANOPY_ACLNNOP_ACLNN_MAX_POOL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelShape,
                                                             const aclIntArray *strides, const int64_t autoPad,
                                                             const aclIntArray *pads, const aclIntArray *dilations,
                                                             const int64_t ceilMode, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MAX_POOL_H_ */
