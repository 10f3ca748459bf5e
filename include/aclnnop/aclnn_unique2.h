/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_unique2.h: the distinct elements of self, sorted (torch.unique), each element's index among them
 * and how often each occurs: valueOut and countsOut, allocated with room, get view shape [count] after the run.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UNIQUE2_H_
#define CANOPY_ACLNNOP_ACLNN_UNIQUE2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnUnique2GetWorkspaceSize(const aclTensor *self, bool sorted, bool returnInverse,
                                                             bool returnCounts, aclTensor *valueOut,
                                                             aclTensor *inverseOut, aclTensor *countsOut,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnUnique2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UNIQUE2_H_ */
