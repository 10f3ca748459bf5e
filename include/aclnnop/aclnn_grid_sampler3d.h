/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grid_sampler3d.h: torch.nn.functional.grid_sample on 5-D tensors: input [N, C, D, H, W] read at
 * grid [N, Do, Ho, Wo, 3] = (x, y, z) in [-1, 1], trilinear or nearest, zeros / border / reflection padding.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GRID_SAMPLER3D_H_
#define CANOPY_ACLNNOP_ACLNN_GRID_SAMPLER3D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGridSampler3DGetWorkspaceSize(const aclTensor *input, const aclTensor *grid,
                                                                   int64_t interpolationMode, int64_t paddingMode,
                                                                   bool alignCorners, aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGridSampler3D(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GRID_SAMPLER3D_H_ */
