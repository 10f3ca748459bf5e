/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_slogdet.h: the sign and the log of the absolute value of each square matrix's determinant.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SLOGDET_H_
#define CANOPY_ACLNNOP_ACLNN_SLOGDET_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [..., n, n]: FLOAT, DOUBLE, COMPLEX64 or COMPLEX128; the outputs have the batch shape [...]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnSlogdetGetWorkspaceSize(const aclTensor *self, aclTensor *signOut,
                                                             aclTensor *logOut, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSlogdet(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SLOGDET_H_ */
