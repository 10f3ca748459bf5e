/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_pdist.h: p-norm distances between each pair of rows of self (upper triangle, row-major).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_PDIST_H_
#define CANOPY_ACLNNOP_ACLNN_PDIST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [N, M] gives out [N * (N - 1) / 2]; p >= 0. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnPdistGetWorkspaceSize(const aclTensor *self, float p, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPdist(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_PDIST_H_ */
