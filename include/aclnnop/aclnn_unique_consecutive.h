/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_unique_consecutive.h: self with runs of equal neighbours (elements, or slices along dim; dim
 * 1000: flattened) collapsed (torch.unique_consecutive), each one's run index and the run lengths; the outputs'
 * view shapes are set after the run.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H_
#define CANOPY_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnUniqueConsecutiveGetWorkspaceSize(const aclTensor *self, bool returnInverse,
                                                                       bool returnCounts, int64_t dim,
                                                                       aclTensor *valueOut, aclTensor *inverseOut,
                                                                       aclTensor *countsOut, uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnUniqueConsecutive(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H_ */
