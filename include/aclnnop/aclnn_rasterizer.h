/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rasterizer.h: rasterizes triangles given in clip space (vertices [x, y, z, w]) onto a
 * height x width screen with a depth buffer: for each pixel, the nearest covering face (its index + 1, 0 for
 * none) and the perspective-corrected barycentric coordinates of the pixel's centre in it.
 * Atlas A2 dtypes: v, dOptional and barycentricOut FLOAT; f and findicesOut INT32.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RASTERIZER_H_
#define CANOPY_ACLNNOP_ACLNN_RASTERIZER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRasterizerGetWorkspaceSize(const aclTensor *v, const aclTensor *f,
                                                                const aclTensor *dOptional, int64_t width,
                                                                int64_t height, double occlusionTruncation,
                                                                int64_t useDepthPrior, const aclTensor *findicesOut,
                                                                const aclTensor *barycentricOut,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRasterizer(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RASTERIZER_H_ */
