/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_gather.h: out[p] = self[p with p[dim] replaced by index[p]] (torch.gather).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GATHER_H_
#define CANOPY_ACLNNOP_ACLNN_GATHER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor *self, const int64_t dim,
                                                            const aclTensor *index, aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGather(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GATHER_H_ */
