/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_linalg_cholesky.h: the Cholesky factor of each symmetric positive-definite matrix of a batch.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LINALG_CHOLESKY_H_
#define CANOPY_ACLNNOP_ACLNN_LINALG_CHOLESKY_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [..., n, n] (n <= 8192); out (self's shape and dtype) is L with self = L L^T, or U = L^T when upper. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLinalgCholeskyGetWorkspaceSize(const aclTensor *self, bool upper, aclTensor *out,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLinalgCholesky(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LINALG_CHOLESKY_H_ */
