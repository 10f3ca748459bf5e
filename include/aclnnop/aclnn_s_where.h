/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_s_where.h: out = condition ? self : other (torch.where), broadcast.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_S_WHERE_H_
#define CANOPY_ACLNNOP_ACLNN_S_WHERE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* condition: BOOL or UINT8 (non-zero is true); self and other promote, and the choice is cast into out. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor *condition, const aclTensor *self,
                                                            const aclTensor *other, aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSWhere(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_S_WHERE_H_ */
