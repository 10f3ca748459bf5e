/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_resize.h: self resized to out's height and width by nearest or bilinear interpolation,
 * TensorFlow's ResizeNearestNeighborV2 / ResizeBilinearV2 without corner alignment or half-pixel centres.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RESIZE_H_
#define CANOPY_ACLNNOP_ACLNN_RESIZE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnResizeGetWorkspaceSize(const aclTensor *self, const aclFloatArray *scales,
                                                            const char *mode, aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnResize(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RESIZE_H_ */
