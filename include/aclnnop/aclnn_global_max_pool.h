/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_global_max_pool.h: ONNX GlobalMaxPool: out[n, c, 1, ...] = the maximum of self[n, c] over every
 * spatial dimension.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GLOBAL_MAX_POOL_H_
#define CANOPY_ACLNNOP_ACLNN_GLOBAL_MAX_POOL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGlobalMaxPoolGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGlobalMaxPool(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GLOBAL_MAX_POOL_H_ */
