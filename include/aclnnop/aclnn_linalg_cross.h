/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_linalg_cross.h: the cross product of 3-vectors along one dim (torch.linalg.cross).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LINALG_CROSS_H_
#define CANOPY_ACLNNOP_ACLNN_LINALG_CROSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self and other (one dtype, broadcast to out's shape); dim (in self's rank) has extent 3 after broadcasting. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLinalgCrossGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                                 int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLinalgCross(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LINALG_CROSS_H_ */
