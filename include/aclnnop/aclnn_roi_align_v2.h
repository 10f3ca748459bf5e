/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_roi_align_v2.h: torchvision's roi_align: boxes [K, 5] of (batch index, x1, y1, x2, y2) average-
 * pooled from bilinear samples to pooledHeight x pooledWidth.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ROI_ALIGN_V2_H_
#define CANOPY_ACLNNOP_ACLNN_ROI_ALIGN_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRoiAlignV2GetWorkspaceSize(const aclTensor *self, const aclTensor *boxes,
                                                                int64_t pooledHeight, int64_t pooledWidth,
                                                                float spatialScale, int64_t samplingRatio, bool aligned,
                                                                aclTensor *out, uint64_t *workspaceSize,
                                                                aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRoiAlignV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ROI_ALIGN_V2_H_ */
