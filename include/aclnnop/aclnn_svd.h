/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_svd.h: the singular value decomposition input = U diag(sigma) V^H of each matrix of a batch.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SVD_H_
#define CANOPY_ACLNNOP_ACLNN_SVD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* input [..., m, n], k = min(m, n): sigma [..., k] (descending); fullMatrices: u [..., m, m], v [..., n, n],
 * otherwise u [..., m, k], v [..., n, k]; u and v are neither checked nor written unless computeUV. One dtype. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnSvdGetWorkspaceSize(const aclTensor *input, const bool fullMatrices,
                                                         const bool computeUV, aclTensor *sigma, aclTensor *u,
                                                         aclTensor *v, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSvd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SVD_H_ */
