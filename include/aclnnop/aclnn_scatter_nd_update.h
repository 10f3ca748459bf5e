/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scatter_nd_update.h: varRef[indices[b..., 0], ..., indices[b..., K - 1], :] = updates[b..., :]
 * in place, K = indices.shape[-1] (tf.scatter_nd_update).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCATTER_ND_UPDATE_H_
#define CANOPY_ACLNNOP_ACLNN_SCATTER_ND_UPDATE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterNdUpdateGetWorkspaceSize(aclTensor *varRef, const aclTensor *indices,
                                                                     const aclTensor *updates, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterNdUpdate(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCATTER_ND_UPDATE_H_ */
