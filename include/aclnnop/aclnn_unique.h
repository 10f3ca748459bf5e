/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_unique.h: the distinct elements of self, sorted (torch.unique), and each element's index among
 * them: valueOut, allocated with room for them, gets view shape [count] after the run.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UNIQUE_H_
#define CANOPY_ACLNNOP_ACLNN_UNIQUE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnUniqueGetWorkspaceSize(const aclTensor *self, bool sorted, bool returnInverse,
                                                            aclTensor *valueOut, aclTensor *inverseOut,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnUnique(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UNIQUE_H_ */
