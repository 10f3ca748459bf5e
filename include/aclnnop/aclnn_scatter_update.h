/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scatter_update.h: CANN's slab write into a cache, in place: updates[i] written into data at
 * batch i (or the batch a [n, 2] indices row names) from offset indices[i] along axis.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCATTER_UPDATE_H_
#define CANOPY_ACLNNOP_ACLNN_SCATTER_UPDATE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceScatterUpdateGetWorkspaceSize(aclTensor *data, const aclTensor *indices,
                                                                          const aclTensor *updates, int64_t axis,
                                                                          uint64_t *workspaceSize,
                                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceScatterUpdate(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCATTER_UPDATE_H_ */
