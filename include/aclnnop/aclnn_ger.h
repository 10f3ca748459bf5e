/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_ger.h: outer product of two vectors, out[i, j] = self[i] * vec2[j].
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GER_H_
#define CANOPY_ACLNNOP_ACLNN_GER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [n] and vec2 [m] promote to one dtype, which out [n, m] must be castable from. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGerGetWorkspaceSize(const aclTensor *self, const aclTensor *vec2, aclTensor *out,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGer(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GER_H_ */
