/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_unique_dim.h: the distinct slices of self along dim, sorted (torch.unique with dim), each
 * slice's index among them and how often each occurs; the outputs' view shapes are set after the run.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UNIQUE_DIM_H_
#define CANOPY_ACLNNOP_ACLNN_UNIQUE_DIM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnUniqueDimGetWorkspaceSize(const aclTensor *self, bool sorted, bool returnInverse,
                                                               int64_t dim, aclTensor *valueOut, aclTensor *inverseOut,
                                                               aclTensor *countsOut, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnUniqueDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UNIQUE_DIM_H_ */
