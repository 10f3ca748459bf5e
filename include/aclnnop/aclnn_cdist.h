/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_cdist.h: p-norm distances between the rows of x1 and of x2, batched.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CDIST_H_
#define CANOPY_ACLNNOP_ACLNN_CDIST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x1 [..., P, M] and x2 [..., R, M] (batch dims broadcast) give out [..., P, R]; p >= 0 (inf: the largest
 * difference); p == 2 needs compute_mode 2. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnCdistGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2, float p,
                                                           int64_t compute_mode, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCdist(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CDIST_H_ */
