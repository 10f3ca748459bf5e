/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_inverse.h: the inverse of each square matrix of a batch (torch.inverse).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_INVERSE_H_
#define CANOPY_ACLNNOP_ACLNN_INVERSE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [..., n, n] (rank 2 to 8 unless empty); out has self's shape and a dtype self casts to. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInverseGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInverse(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_INVERSE_H_ */
