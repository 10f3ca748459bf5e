/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_gather_v2.h: out = self indexed along dim by every element of index (index's shape replaces dim).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GATHER_V2_H_
#define CANOPY_ACLNNOP_ACLNN_GATHER_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor *self, int64_t dim,
                                                              const aclTensor *index, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGatherV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GATHER_V2_H_ */
