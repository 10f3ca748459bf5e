/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_iou.h: the overlap of two sets of boxes [x0, y0, x1, y1]: intersection over union (iou) or over
 * the ground-truth box's area (iof), every pair or aligned pairs.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_IOU_H_
#define CANOPY_ACLNNOP_ACLNN_IOU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIouGetWorkspaceSize(const aclTensor *bBoxes, const aclTensor *gtBoxes,
                                                         const char *mode, float eps, bool aligned, aclTensor *overlap,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIou(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_IOU_H_ */
