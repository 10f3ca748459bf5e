/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_affine_grid.h: the sampling grid of a batch of 2-D or 3-D affine transforms
 * (torch.nn.functional.affine_grid).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_AFFINE_GRID_H_
#define CANOPY_ACLNNOP_ACLNN_AFFINE_GRID_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAffineGridGetWorkspaceSize(const aclTensor *theta, const aclIntArray *size,
                                                                bool alignCorners, aclTensor *out,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAffineGrid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_AFFINE_GRID_H_ */
