/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_gather_v3.h: slices of self along dim picked by every element of index (index's shape replaces
 * dim); on Atlas A2 dim 0, batchDims 0 and mode 1 only.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GATHER_V3_H_
#define CANOPY_ACLNNOP_ACLNN_GATHER_V3_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGatherV3GetWorkspaceSize(const aclTensor *self, int64_t dim,
                                                              const aclTensor *index, int64_t batchDims, int64_t mode,
                                                              aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGatherV3(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GATHER_V3_H_ */
