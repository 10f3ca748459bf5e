/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_nonzero_v2.h: the coordinates of self's non-zero elements, one column each in row-major order:
 * out, allocated with room for them, gets view shape [rank(self), N] after the run.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NONZERO_V2_H_
#define CANOPY_ACLNNOP_ACLNN_NONZERO_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNonzeroV2GetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNonzeroV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NONZERO_V2_H_ */
