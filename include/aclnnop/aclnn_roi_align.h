/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_roi_align.h: RoiAlign as ONNX opset 10 defines it: each region of interest of a batch image
 * pooled (avg or max of bilinear samples) to outputHeight x outputWidth.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ROI_ALIGN_H_
#define CANOPY_ACLNNOP_ACLNN_ROI_ALIGN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRoiAlignGetWorkspaceSize(const aclTensor *self, const aclTensor *rois,
                                                              const aclTensor *batchIndices, const char *mode,
                                                              int outputHeight, int outputWidth, int samplingRatio,
                                                              float spatialScale, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRoiAlign(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ROI_ALIGN_H_ */
