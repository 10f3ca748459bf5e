/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scale.h: y = x * scale + bias (Caffe's Scale layer), scale
 * and bias spanning dims axis.. of x.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCALE_H_
#define CANOPY_ACLNNOP_ACLNN_SCALE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* scale (and bias, optional, of scale's shape) match x's dims from axis on, or hold one value. scaleFromBlob:
 * numAxes dims (-1: the rest, 0: a single value); otherwise scale's own rank. x, scale, bias and y share a dtype. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnScaleGetWorkspaceSize(const aclTensor *x, const aclTensor *scale,
                                                           const aclTensor *bias, int64_t axis, int64_t numAxes,
                                                           bool scaleFromBlob, aclTensor *y, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScale(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCALE_H_ */
