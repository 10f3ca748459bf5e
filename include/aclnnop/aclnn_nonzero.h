/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_nonzero.h: the coordinates of self's non-zero elements, one row each in row-major order
 * (torch.nonzero): out, allocated with room for them, gets view shape [N, rank(self)] after the run.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NONZERO_H_
#define CANOPY_ACLNNOP_ACLNN_NONZERO_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNonzero(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NONZERO_H_ */
